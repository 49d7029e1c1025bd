// --server URL --key KEY --events ...: the listener subscribes itself to a running svc (or the
// real service) through the public API, and deletes what it made when it stops.

export interface SvcApi {
  /** The API base, `http://HOST:PORT/v1`. */
  base: string;
  key: string;
}

export interface Subscription {
  id: string;
  event: string;
}

export interface Subscribed {
  secret: string;
  webhooks: Subscription[];
  /** Ids of identical subscriptions an earlier listener left behind, deleted and made anew. */
  replaced: string[];
}

const TIMEOUT_MS = 10_000;

/** Accepts `http://host:port`, `http://host:port/` or the base URL svc serve prints (`.../v1`). */
export function apiBase(server: string): string {
  return `${server.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1`;
}

export async function subscribe(
  api: SvcApi,
  events: readonly string[],
  targetUrl: string,
): Promise<Subscribed> {
  const body = {
    ...(events.length === 1 ? { event: events[0] } : { events }),
    target_url: targetUrl,
    description: 'svc webhook listen',
  };
  const first = await create(api, body);
  if (first.secret !== undefined) {
    return { secret: first.secret, webhooks: first.webhooks, replaced: [] };
  }
  // spec, Webhooks: subscribing the same event, URL and filters twice returns the existing
  // subscription, without its secret (shown once). Its URL is this listener's own address, so
  // it is one an earlier listener left behind (killed before it could clean up): the listener
  // cannot verify its deliveries, so it deletes it and subscribes again for a fresh secret.
  for (const webhook of first.webhooks) {
    await unsubscribe(api, webhook.id);
  }
  const second = await create(api, body);
  if (second.secret === undefined) {
    throw new Error(
      `POST ${api.base}/webhooks returned no secret, even after deleting the old one`,
    );
  }
  return {
    secret: second.secret,
    webhooks: second.webhooks,
    replaced: first.webhooks.map((w) => w.id),
  };
}

/** Deletes one subscription; one already gone (404) is as good as deleted. */
export async function unsubscribe(api: SvcApi, id: string): Promise<void> {
  const url = `${api.base}/webhooks/${encodeURIComponent(id)}`;
  const res = await call(url, api.key, 'DELETE');
  if (res.status !== 404 && (res.status < 200 || res.status > 299)) {
    // spec, Authentication 3: a read-only key may subscribe, and no other write.
    const readOnly =
      res.status === 403
        ? ' (a read-only key may subscribe but not delete: the subscription stays until its key is revoked, or a delivery to it is answered 410)'
        : '';
    throw new Error(`DELETE ${url} answered ${res.status}${describeError(res.body)}${readOnly}`);
  }
}

async function create(
  api: SvcApi,
  body: object,
): Promise<{ secret: string | undefined; webhooks: Subscription[] }> {
  const url = `${api.base}/webhooks`;
  const res = await call(url, api.key, 'POST', body);
  if (res.status !== 200 && res.status !== 201) {
    throw new Error(`POST ${url} answered ${res.status}${describeError(res.body)}${hint(res)}`);
  }
  const answer = asRecord(res.body);
  const items = answer.object === 'list' && Array.isArray(answer.data) ? answer.data : [answer];
  const webhooks = items.map(asRecord);
  if (webhooks.length === 0 || webhooks.some((w) => typeof w.id !== 'string')) {
    throw new Error(`POST ${url} answered ${res.status} without webhook ids`);
  }
  return {
    secret: typeof answer.secret === 'string' ? answer.secret : undefined,
    webhooks: webhooks.map((w) => ({
      id: String(w.id),
      event: typeof w.event === 'string' ? w.event : '?',
    })),
  };
}

async function call(
  url: string,
  key: string,
  method: string,
  body?: object,
): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    // fetch wraps the socket error: "fetch failed" says nothing, its cause does
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    throw new Error(`${method} ${url} failed: ${cause instanceof Error ? cause.message : cause}`);
  }
  const text = await res.text();
  try {
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function describeError(body: unknown): string {
  const error = asRecord(asRecord(body).error);
  return typeof error.code === 'string' ? ` ${error.code}: ${String(error.message ?? '')}` : '';
}

function hint(res: { status: number; body: unknown }): string {
  const field = asRecord(asRecord(res.body).error).field;
  if (res.status === 400 && (field === 'target_url' || field === 'targetUrl')) {
    return ' (svc serve refuses http: and loopback targets unless started with --allow-local-targets)';
  }
  return '';
}
