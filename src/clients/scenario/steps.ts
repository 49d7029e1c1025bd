import { type Answer, asRecord, Interrupted, NetworkError, send, sendJson } from './http';
import { type Mismatch, match, matchHeader, render } from './matchers';
import { buildAdmin, buildClock, buildRequest, RequestProblem } from './request';
import { type Expect, kindOf, type Step } from './schema';
import {
  clockPath,
  describeMismatch,
  type Session,
  SkipScenario,
  StepFailure,
  type StepRecord,
} from './session';
import { mentions, substitute, UnknownName } from './substitute';
import { awaitDelivery, remember, subscribe } from './webhooks';

// The one step engine: `svc scenario run` and `svc trigger` both hand it a list of steps and a
// session. Each step is substituted, sent, checked against its `expect`, and captured from.

export interface StepHooks {
  onStep?: (record: StepRecord) => void;
}

export async function runSteps(
  steps: readonly Step[],
  session: Session,
  hooks: StepHooks = {},
): Promise<StepRecord[]> {
  const records: StepRecord[] = [];
  for (const [i, raw] of steps.entries()) {
    const record = await runStep(raw, i + 1, session);
    records.push(record);
    hooks.onStep?.(record);
  }
  return records;
}

/** What the step does as written (`GET /contacts/{{id}}`, `delivery job.created`), after its name. */
export function labelOf(step: Step): string {
  const call = step.request ?? step.admin;
  const does = call ? `${call.method.toUpperCase()} ${call.path}` : kindLabel(step);
  return step.name ? `${step.name}: ${does}` : does;
}

function kindLabel(step: Step): string {
  if (step.webhook) {
    return `webhook ${[step.webhook.event].flat().join(',')}`;
  }
  if (step.delivery) {
    return `${step.delivery.none ? 'no delivery' : 'delivery'} ${step.delivery.event}`;
  }
  const clock = step.clock;
  return clock && 'advance' in clock ? `clock advance ${clock.advance}` : `clock set ${clock?.set}`;
}

async function runStep(raw: Step, number: number, session: Session): Promise<StepRecord> {
  if (session.signal?.aborted) {
    throw new Interrupted();
  }
  const label = labelOf(raw);
  const fail = (detail: string, mismatch?: Mismatch) =>
    new StepFailure(number, label, detail, mismatch);
  let step: Step;
  try {
    if (mentions(raw, 'now')) {
      session.vars.set('now', await nowOf(session));
    }
    step = substitute(raw, session.vars);
    // expectations again, with captured records kept as data (FORMAT.md, allOf)
    if (raw.expect) {
      step.expect = substitute(raw.expect, session.vars, true);
    }
    if (raw.delivery && step.delivery) {
      step.delivery.body = substitute(raw.delivery.body, session.vars, true);
      step.delivery.headers = substitute(raw.delivery.headers, session.vars, true);
    }
  } catch (err) {
    throw err instanceof UnknownName ? fail(err.message) : err;
  }
  const record: StepRecord = {
    number,
    label,
    kind: kindOf(step),
    method: undefined,
    path: undefined,
    status: undefined,
    body: undefined,
  };
  try {
    const body = await execute(step, record, session, fail);
    capture(step, body, session, fail);
  } catch (err) {
    if (err instanceof NetworkError || err instanceof RequestProblem) {
      throw fail(err.message);
    }
    throw err;
  }
  return record;
}

type Fail = (detail: string, mismatch?: Mismatch) => StepFailure;

/** Runs the step and checks it; what `capture` reads (an answer, or a delivery's body). */
async function execute(
  step: Step,
  record: StepRecord,
  session: Session,
  fail: Fail,
): Promise<Answer | { body: unknown; headers: Headers }> {
  if (step.delivery) {
    const outcome = await awaitDelivery(step.delivery, session);
    if (!outcome.ok) {
      throw fail(outcome.detail, outcome.mismatch);
    }
    record.body = outcome.received.body;
    const headers = new Headers();
    for (const [name, value] of Object.entries(outcome.received.headers)) {
      if (value !== undefined) {
        headers.set(name, value);
      }
    }
    return { body: outcome.received.body, headers };
  }
  if ((step.clock || step.admin) && !session.control) {
    throw new SkipScenario(`${session.origin} has no svc control API for clock and admin steps`);
  }
  const times = step.request?.repeat ?? 1;
  let answer: Answer | undefined;
  for (let n = 1; n <= times; n++) {
    answer = await politely(step, () => sendStep(step, record, session), session.signal);
    const mismatch = check(step.expect, answer);
    if (mismatch) {
      const attempt = times > 1 ? ` (request ${n} of ${times})` : '';
      throw fail(`${describeMismatch(mismatch)}${attempt}`, mismatch);
    }
  }
  return answer as Answer;
}

async function sendStep(step: Step, record: StepRecord, session: Session): Promise<Answer> {
  if (step.webhook) {
    record.method = 'POST';
    record.path = '/webhooks';
    const answer = await subscribe(step.webhook, session);
    return note(record, answer);
  }
  const out = step.request
    ? await buildRequest(step.request, session)
    : step.admin
      ? buildAdmin(step.admin, session)
      : buildClock(step.clock ?? { advance: 0 }, session);
  record.method = out.method;
  record.path = (step.request?.path ?? step.admin?.path ?? clockPath(session)).split('?')[0];
  const answer = await send({ ...out, signal: session.signal });
  if (step.request) {
    session.webhooks.push(...remember(answer, session.inbox));
  }
  return note(record, answer);
}

/** A 429 the step does not expect is waited out (Retry-After, at most 60 s) this many times. */
export const RATE_LIMIT_RETRIES = 5;
const MAX_WAIT_S = 60;

/**
 * A polite client: against a shared workspace the rate limit (120 a minute) is spent by other
 * scenarios, so a 429 that expect.status does not accept is waited out as its Retry-After says,
 * then the request is sent again. A step expecting 429 (rate-limit.yaml) gets it as it came.
 */
async function politely(
  step: Step,
  sendOnce: () => Promise<Answer>,
  signal: AbortSignal | undefined,
): Promise<Answer> {
  let answer = await sendOnce();
  for (let retry = 1; retry <= RATE_LIMIT_RETRIES && limited(step, answer); retry++) {
    await sleep(retryAfterSeconds(answer) * 1000, signal);
    answer = await sendOnce();
  }
  return answer;
}

function limited(step: Step, answer: Answer): boolean {
  if (answer.status !== 429) {
    return false;
  }
  const status = step.expect?.status;
  return status === undefined || match(status, 429, 'status') !== null;
}

/** Retry-After in seconds (or an HTTP date), 1 when absent, bounded to 1..60. */
export function retryAfterSeconds(answer: Pick<Answer, 'headers'>): number {
  const header = answer.headers.get('retry-after')?.trim() ?? '';
  let seconds = /^\d+$/.test(header) ? Number(header) : Number.NaN;
  if (Number.isNaN(seconds) && header !== '' && !Number.isNaN(Date.parse(header))) {
    seconds = Math.ceil((Date.parse(header) - Date.now()) / 1000);
  }
  return Number.isNaN(seconds) ? 1 : Math.min(MAX_WAIT_S, Math.max(1, seconds));
}

/** Waits `ms`; an abort ends the wait at once with Interrupted. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done, fail) => {
    if (signal?.aborted) {
      fail(new Interrupted());
      return;
    }
    const stop = () => {
      clearTimeout(timer);
      fail(new Interrupted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      done();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

function note(record: StepRecord, answer: Answer): Answer {
  record.status = answer.status;
  record.body = answer.body;
  return answer;
}

/** expect.status, headers, body; without expect.status a 4xx or 5xx fails (a set-up step). */
function check(expect: Expect | undefined, answer: Answer): Mismatch | null {
  if (expect?.status !== undefined) {
    const m = match(expect.status, answer.status, 'status');
    if (m) {
      return { ...m, got: statusText(answer) };
    }
  } else if (answer.status >= 400) {
    return { path: 'status', expected: 'a 2xx or 3xx', got: statusText(answer) };
  }
  for (const [name, expected] of Object.entries(expect?.headers ?? {})) {
    const m = matchHeader(expected, answer.headers.get(name) ?? undefined, `header.${name}`);
    if (m) {
      return m;
    }
  }
  return expect?.body === undefined ? null : match(expect.body, answer.body, 'body');
}

/** `404 not_found: no such contact` for an error envelope, else the status and the body. */
function statusText(answer: Answer): string {
  const error = asRecord(asRecord(answer.body).error);
  if (typeof error.code === 'string') {
    const field = typeof error.field === 'string' ? ` (field ${error.field})` : '';
    return `${answer.status} ${error.code}${field}: ${String(error.message ?? '')}`;
  }
  return answer.body === undefined
    ? String(answer.status)
    : `${answer.status} ${render(answer.body)}`;
}

function capture(
  step: Step,
  from: { body: unknown; headers: Headers },
  session: Session,
  fail: Fail,
): void {
  for (const [name, path] of Object.entries(step.capture ?? {})) {
    const value = read(from, path);
    if (value === undefined) {
      throw fail(`capture ${name}: nothing at ${path} in ${render(from.body)}`);
    }
    session.vars.set(name, value);
  }
}

/** A dotted path into the body (`data.0.id`), or `header.<name>`. */
export function read(from: { body: unknown; headers: Headers }, path: string): unknown {
  if (path === '$') {
    return from.body;
  }
  if (path.startsWith('header.')) {
    return from.headers.get(path.slice('header.'.length)) ?? undefined;
  }
  let value: unknown = from.body;
  for (const part of path.split('.').filter((p) => p !== '')) {
    if (Array.isArray(value) && /^\d+$/.test(part)) {
      value = value[Number(part)];
    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, part)) {
      value = (value as Record<string, unknown>)[part];
    } else {
      return undefined;
    }
  }
  return value;
}

async function nowOf(session: Session): Promise<string> {
  if (session.control) {
    const answer = await sendJson(
      'GET',
      `${session.origin}${clockPath(session)}`,
      undefined,
      undefined,
      session.signal,
    ).catch(() => undefined);
    const now = asRecord(answer?.body).now;
    if (typeof now === 'string') {
      return now;
    }
  }
  return new Date().toISOString();
}
