import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for the svc side of /v1/webhooks, as the spec describes it: POST answers 201 with
// the secret once, 200 with the existing subscription (no secret) for an identical one; DELETE
// removes it. 127.0.0.1 only. It can also deliver, signed with the secret it issued.

export interface FakeWebhook {
  id: string;
  event: string;
  target_url: string;
  secret: string;
}

export interface FakeCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface FakeSvc {
  url: string;
  key: string;
  calls: FakeCall[];
  webhooks: Map<string, FakeWebhook>;
  /** Answer the next POST /v1/webhooks with this error instead. */
  failNextPost(status: number, code: string, field?: string): void;
  /** POSTs a signed delivery of `event` to the subscription's target, as svc would. */
  deliver(id: string, record: object): Promise<number>;
  close(): Promise<void>;
}

export async function startFakeSvc(key = 'svc_live_fake_key'): Promise<FakeSvc> {
  const calls: FakeCall[] = [];
  const webhooks = new Map<string, FakeWebhook>();
  let failure: { status: number; code: string; field?: string } | undefined;
  const server = createServer(async (req, res) => {
    const body = await readJson(req);
    const path = req.url ?? '';
    calls.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
    const send = (status: number, payload?: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(payload === undefined ? '' : JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${key}`) {
      return send(401, { error: { code: 'unauthorized', message: 'no such key' } });
    }
    if (req.method === 'POST' && path === '/v1/webhooks') {
      if (failure) {
        const { status, code, field } = failure;
        failure = undefined;
        return send(status, { error: { code, message: 'refused', ...(field ? { field } : {}) } });
      }
      subscribe(body as Record<string, unknown>, webhooks, send);
      return;
    }
    const match = /^\/v1\/webhooks\/([^/]+)$/.exec(path);
    if (req.method === 'DELETE' && match?.[1]) {
      const id = decodeURIComponent(match[1]);
      if (!webhooks.delete(id)) {
        return send(404, { error: { code: 'not_found', message: 'no such webhook' } });
      }
      return send(200, { id, object: 'webhook', deleted: true });
    }
    return send(404, { error: { code: 'not_found', message: 'no such route' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    calls,
    webhooks,
    failNextPost(status, code, field) {
      failure = { status, code, ...(field ? { field } : {}) };
    },
    async deliver(id, record) {
      const webhook = webhooks.get(id);
      if (!webhook) {
        throw new Error(`no webhook ${id}`);
      }
      const body = JSON.stringify({ ...record, event_type: webhook.event, event_id: randomUUID() });
      const t = Math.floor(Date.now() / 1000);
      const v1 = createHmac('sha256', webhook.secret).update(`${t}.${body}`).digest('hex');
      const res = await fetch(webhook.target_url, {
        method: 'POST',
        body,
        headers: {
          'Content-Type': 'application/json',
          'X-Service-Signature': `t=${t},v1=${v1}`,
          'X-Service-Event': webhook.event,
          'X-Service-Delivery': randomUUID(),
          'X-Service-Webhook-Id': webhook.id,
          'X-Service-Attempt': '1',
        },
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer();
      return res.status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function subscribe(
  body: Record<string, unknown>,
  webhooks: Map<string, FakeWebhook>,
  send: (status: number, payload?: unknown) => void,
): void {
  const events = Array.isArray(body.events) ? (body.events as string[]) : [String(body.event)];
  const target = String(body.target_url);
  const existing = [...webhooks.values()].filter(
    (w) => w.target_url === target && events.includes(w.event),
  );
  const shape = ({ secret: _secret, ...w }: FakeWebhook) => ({ ...w, object: 'webhook' });
  if (existing.length === events.length) {
    const data = existing.map(shape);
    send(200, Array.isArray(body.events) ? { object: 'list', data } : data[0]);
    return;
  }
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const made = events.map((event) => {
    const webhook = { id: randomUUID(), event, target_url: target, secret };
    webhooks.set(webhook.id, webhook);
    return shape(webhook);
  });
  send(
    201,
    Array.isArray(body.events) ? { object: 'list', data: made, secret } : { ...made[0], secret },
  );
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
}
