import type { Dedupe } from './dedupe';
import { type Diagnosis, diagnose } from './doctor';
import type { Responder } from './responder';
import { type SignatureVerdict, type VerifyInput, verifySignature } from './signature';

// What the listener decides about one delivery, without any HTTP: verify, dedupe, pick the
// answer. server.ts does the I/O around it.

// `unverified`: no secret was given (and no --server), so nothing can be checked; `duplicate`:
// an event id already acknowledged with a 2xx.
export type Verdict = Exclude<SignatureVerdict, 'ok'> | 'ok' | 'unverified' | 'duplicate';

export interface Delivery {
  /** Request headers, names lower-cased as node:http gives them. */
  headers: Record<string, string | undefined>;
  /** The body bytes exactly as received: the signature covers them. */
  raw: Buffer;
}

export interface Outcome {
  verdict: Verdict;
  /** null: dropped by --drop, answered with nothing (the connection is closed). */
  status: number | null;
  /**
   * Accepted (`ok`, or `unverified` without a secret) and not a duplicate: only such a delivery
   * is forwarded. Rejected ones are answered 400, duplicates with the 2xx of the first.
   */
  fresh: boolean;
  event: string | undefined;
  eventId: string | undefined;
  recordId: string | undefined;
  attempt: string | undefined;
  test: boolean;
  /** The parsed JSON body, or its text when it is not JSON. */
  body: unknown;
  /** The signature doctor's finding: why a signature failed, or that its secret is rotating. */
  diagnosis: Diagnosis | undefined;
}

export interface ReceiverOptions {
  /** False only without --secret and --server: every delivery is then `unverified`. */
  verify: boolean;
  secrets: readonly string[];
  toleranceSeconds: number;
  responder: Responder;
  dedupe: Dedupe;
  /** --drop's draw, made for every delivery: true answers it with nothing. */
  drop?: () => boolean;
}

export function createReceiver(options: ReceiverOptions): (d: Delivery, nowMs: number) => Outcome {
  return (delivery, nowMs) => {
    const body = parseBody(delivery.raw);
    const fields =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const base = {
      event: delivery.headers['x-service-event'] ?? stringField(fields.event_type),
      eventId: delivery.headers['x-service-delivery'] ?? stringField(fields.event_id),
      recordId: stringField(fields.id),
      attempt: delivery.headers['x-service-attempt'],
      test: fields.event_test === true,
      body,
    };
    // Drawn first and for every delivery, so the draws follow the deliveries one to one. A
    // dropped delivery is still checked and printed, but takes no --respond status and is not
    // remembered as acknowledged: svc's retry of it is fresh (decisions.md, Receiver chaos).
    const dropped = options.drop?.() ?? false;
    const answer = (status: number) => (dropped ? null : status);
    let diagnosis: Diagnosis | undefined;
    if (options.verify) {
      const input: VerifyInput = {
        header: delivery.headers['x-service-signature'],
        body: delivery.raw,
        secrets: options.secrets,
        nowSeconds: Math.floor(nowMs / 1000),
        toleranceSeconds: options.toleranceSeconds,
      };
      const signature = verifySignature(input);
      diagnosis = diagnose(input, signature);
      if (signature !== 'ok') {
        return { ...base, diagnosis, verdict: signature, status: answer(400), fresh: false };
      }
    }
    // A duplicate is answered from memory: it does not use up a --respond sequence.
    const acknowledged = base.eventId === undefined ? undefined : options.dedupe.seen(base.eventId);
    if (acknowledged !== undefined) {
      return {
        ...base,
        diagnosis,
        verdict: 'duplicate',
        status: answer(acknowledged),
        fresh: false,
      };
    }
    const accepted = options.verify ? 'ok' : 'unverified';
    if (dropped) {
      return { ...base, diagnosis, verdict: accepted, status: null, fresh: false };
    }
    const status = options.responder.next();
    if (base.eventId !== undefined && status >= 200 && status < 300) {
      options.dedupe.remember(base.eventId, status);
    }
    return { ...base, diagnosis, verdict: accepted, status, fresh: true };
  };
}

/**
 * The headers svc sends that a replay or a forward must repeat: X-Service-*, Content-Type and
 * User-Agent (spec, Delivery headers), names lower-cased.
 */
export function deliveryHeaders(
  headers: Record<string, string | undefined>,
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const kept = name.startsWith('x-service-') || name === 'content-type' || name === 'user-agent';
    if (kept && value !== undefined) {
      picked[name] = value;
    }
  }
  return picked;
}

// What the printed line calls each verdict: words a reader gets without the README. The record
// (--record) keeps the verdict's own name, for programs.
const said: Record<Verdict, string> = {
  ok: 'verified',
  unverified: 'unverified',
  duplicate: 'duplicate',
  'missing-signature': 'missing signature',
  'malformed-signature': 'malformed signature',
  'bad-signature': 'bad signature',
  'stale-timestamp': 'stale timestamp',
};

/**
 * `12:04:05 job.stage_changed 7b0c…a11 attempt 2 verified, answered 200`: one line a delivery;
 * then what chaos did to its forward (`, held #3`), and the signature doctor's finding after `; `.
 */
export function formatLine(outcome: Outcome, at: Date, marker?: string): string {
  const time = at.toTimeString().slice(0, 8);
  const answer = outcome.status === null ? 'dropped (no answer)' : `answered ${outcome.status}`;
  const parts = [
    time,
    printable(outcome.event ?? '-'),
    printable(shorten(outcome.recordId ?? '-')),
    `attempt ${printable(outcome.attempt ?? '?')}`,
    `${said[outcome.verdict]}, ${answer}${marker === undefined ? '' : `, ${marker}`}`,
  ];
  if (outcome.test) {
    parts.push('(test send)');
  }
  const line = parts.join(' ');
  return outcome.diagnosis === undefined ? line : `${line}; ${outcome.diagnosis.text}`;
}

function shorten(id: string): string {
  return id.length > 10 ? `${id.slice(0, 4)}…${id.slice(-3)}` : id;
}

// The fields come from the network, unverified when the signature is bad: no terminal escapes,
// no line breaks, nothing longer than a line.
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\s]/g, '?').slice(0, 80);
}

function parseBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
