import { faultMessage } from '../../platform/faults';
import { compareAnswers } from './compare';
import type { SourceEntry } from './entry';
import { send } from './http';
import { IdMap } from './ids';

// svc replay: the selected entries, oldest first, re-sent to another server under the mapped
// credential, ids following, each answer set beside the recorded one.

export interface Target {
  /** --to, with or without its /v1. */
  to: string;
  /** --key: the key of any recorded key_id --key-map does not name. */
  key?: string | undefined;
  /** --key-map: recorded key_id to the key to send it with. */
  keyMap: ReadonlyMap<string, string>;
  /** --compare: the whole comparison; else the status only. */
  compare: boolean;
}

export interface Outcome {
  method: string;
  /** The recorded path and query (shownPath). */
  path: string;
  recorded_status: number;
  /** The new answer's status; null when nothing came (skipped, or no answer). */
  status: number | null;
  result: 'same' | 'different' | 'skipped';
  differences: string[];
  /** Why it was skipped, or why less than the whole answer was compared. */
  reason: string | null;
  /** Whether it was sent and no answer came. */
  failed: boolean;
  duration_ms: number;
}

/** The base every logged path (`/v1/...`) is mapped onto: --to, ending in /v1. */
export function apiBase(to: string): string {
  const base = to.replace(/\/+$/, '');
  return base.endsWith('/v1') ? base : `${base}/v1`;
}

export async function replay(
  entries: readonly SourceEntry[],
  target: Target,
  each: (outcome: Outcome) => void,
): Promise<Outcome[]> {
  const ids = new IdMap();
  const base = apiBase(target.to);
  const out: Outcome[] = [];
  let unreachable = false;
  for (const entry of entries) {
    const why: string | null = unreachable
      ? 'not sent: an earlier request got no answer from the target'
      : skipReason(entry, target);
    const outcome: Outcome =
      why === null ? await replayOne(entry, base, target, ids) : skipped(entry, why);
    unreachable ||= outcome.failed;
    out.push(outcome);
    each(outcome);
  }
  return out;
}

function keyFor(entry: SourceEntry, target: Target): string | undefined {
  return target.keyMap.get(entry.key_id) ?? target.key;
}

// What the log cannot give back faithfully is not sent: a mangled body would answer something
// the customer never asked.
function skipReason(entry: SourceEntry, target: Target): string | null {
  if (entry.path !== '/v1' && !entry.path.startsWith('/v1/')) {
    return 'not a call of the API (/v1)';
  }
  if (keyFor(entry, target) === undefined) {
    return `no key for the recorded key ${entry.key_id} (give --key-map ${entry.key_id}=KEY or --key)`;
  }
  const type = header(entry, 'content-type') ?? '';
  if (type.toLowerCase().startsWith('multipart/')) {
    return 'a multipart upload: the log keeps no file bytes';
  }
  if (entry.request_body_truncated) {
    return 'the log truncated the request body (over 16 KB)';
  }
  if (answeredByFault(entry)) {
    return `faulted: the recorded answer was fault ${entry.fault}'s, and the call changed nothing`;
  }
  return null;
}

/**
 * decisions.md, Faults: a call a fault dropped (status 0) or answered instead of the route. Sent
 * again it would make what the recorded call never made; the client's retry is the next line. A
 * delay alone let the real answer through: that line is replayed as any other.
 */
function answeredByFault(entry: SourceEntry): boolean {
  if (entry.fault === undefined) {
    return false;
  }
  if (entry.status === 0) {
    return true;
  }
  try {
    const body = JSON.parse(entry.response_body ?? '') as { error?: { message?: unknown } };
    return body.error?.message === faultMessage(entry.fault);
  } catch {
    return false;
  }
}

const header = (entry: SourceEntry, name: string): string | undefined =>
  entry.request_headers[name] ??
  Object.entries(entry.request_headers).find(([k]) => k.toLowerCase() === name)?.[1];

/**
 * The path a result line shows: the recorded one with its recorded query, so two pages of one
 * list can be told apart; ids as recorded, as the source shows them.
 */
export function shownPath(entry: Pick<SourceEntry, 'path' | 'query'>): string {
  const query = new URLSearchParams(entry.query).toString();
  return query === '' ? entry.path : `${entry.path}?${query}`;
}

function skipped(entry: SourceEntry, reason: string): Outcome {
  return {
    method: entry.method,
    path: shownPath(entry),
    recorded_status: entry.status,
    status: null,
    result: 'skipped',
    differences: [],
    reason,
    failed: false,
    duration_ms: 0,
  };
}

async function replayOne(
  entry: SourceEntry,
  base: string,
  target: Target,
  ids: IdMap,
): Promise<Outcome> {
  const list = listOf(entry);
  const request = requestOf(entry, base, target, ids, list);
  const started = performance.now();
  const reply = await send(request);
  const duration_ms = Math.round(performance.now() - started);
  const common = { method: entry.method, path: shownPath(entry), recorded_status: entry.status };
  if ('error' in reply) {
    const differences = [`no answer: ${reply.error}`];
    return {
      ...common,
      status: null,
      result: 'different',
      differences,
      reason: null,
      failed: true,
      duration_ms,
    };
  }
  learnIds(entry, reply, ids, list);
  const { differences, note } = target.compare
    ? compareAnswers(recordedAnswer(entry), {
        status: reply.status,
        body: reply.body,
        truncated: false,
      })
    : statusOnly(entry.status, reply.status);
  return {
    ...common,
    status: reply.status,
    result: differences.length === 0 ? 'same' : 'different',
    differences,
    reason: note,
    failed: false,
    duration_ms,
  };
}

/** The recorded call again, at the target, with the ids and cursors the target gave instead. */
function requestOf(
  entry: SourceEntry,
  base: string,
  target: Target,
  ids: IdMap,
  list: ReturnType<typeof listOf>,
): Parameters<typeof send>[0] {
  const query = new URLSearchParams(
    Object.entries(entry.query).map(
      ([k, v]) =>
        [k, k === 'cursor' ? ids.applyCursor(list, v) : ids.applyValue(v)] as [string, string],
    ),
  ).toString();
  const headers: Record<string, string> = { Authorization: `Bearer ${keyFor(entry, target)}` };
  const type = header(entry, 'content-type');
  const idempotencyKey = header(entry, 'idempotency-key');
  if (type !== undefined) {
    headers['Content-Type'] = type;
  }
  if (idempotencyKey !== undefined) {
    headers['Idempotency-Key'] = idempotencyKey;
  }
  return {
    method: entry.method,
    url: `${base}${ids.apply(entry.path.slice(3))}${query === '' ? '' : `?${query}`}`,
    headers,
    body: entry.request_body === null ? null : ids.apply(entry.request_body),
  };
}

const recordedAnswer = (entry: SourceEntry) => ({
  status: entry.status,
  body: entry.response_body,
  truncated: entry.response_body_truncated,
});

const statusOnly = (recorded: number, now: number) => ({
  differences: recorded === now ? [] : [`status: ${now}, recorded ${recorded}`],
  note: null,
});

/**
 * A list, as its pages share it: method, path and query but the cursor (recorded values). The
 * cursor a page was asked with is mapped before its answer is learnt from, so this is stable.
 */
function listOf(entry: SourceEntry): string {
  const query = Object.entries(entry.query)
    .filter(([k]) => k !== 'cursor')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${entry.method} ${entry.path}?${new URLSearchParams(query)}`;
}

/**
 * An answer that succeeded in both: the ids a create made (see IdMap.learn) and the next_cursor
 * of a list page (see IdMap.learnCursor; learnUnreadCursor when the log truncated the page).
 */
function learnIds(
  entry: SourceEntry,
  reply: { status: number; body: string },
  ids: IdMap,
  list: string,
): void {
  const ok = (status: number) => status >= 200 && status < 300;
  if (!ok(entry.status) || !ok(reply.status) || entry.response_body === null) {
    return;
  }
  let now: unknown;
  try {
    now = JSON.parse(reply.body);
  } catch {
    return; // not JSON: nothing to learn
  }
  if (entry.response_body_truncated) {
    ids.learnUnreadCursor(list, now);
    return;
  }
  let recorded: unknown;
  try {
    recorded = JSON.parse(entry.response_body);
  } catch {
    return;
  }
  if (entry.method === 'POST') {
    ids.learn(recorded, now);
  }
  ids.learnCursor(recorded, now);
}
