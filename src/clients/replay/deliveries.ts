import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { signature } from '../../deliveries/send';
import { send } from './http';
import { SourceError } from './source';

// svc replay deliveries: the lines `svc webhook listen --record` wrote, sent again with the same
// body bytes and headers, X-Service-Signature made afresh at send time with --secret.

const RecordedSchema = z.object({
  headers: z.record(z.string(), z.string()),
  body: z.string(),
});

export type Recorded = z.output<typeof RecordedSchema>;

export interface DeliveryOutcome {
  event: string;
  delivery: string;
  status: number | null;
  error: string | null;
}

/** The recorded deliveries, in file order; a line that is none is a SourceError (exit 2). */
export async function readRecorded(file: string): Promise<Recorded[]> {
  const out: Recorded[] = [];
  let n = 0;
  try {
    const input = createReadStream(file, { encoding: 'utf8' });
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      n += 1;
      if (line.trim() === '') {
        continue;
      }
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new SourceError(`${file} line ${n}: not JSON`);
      }
      const parsed = RecordedSchema.safeParse(json);
      if (!parsed.success) {
        throw new SourceError(`${file} line ${n}: not a line of svc webhook listen --record`);
      }
      out.push(parsed.data);
    }
  } catch (err) {
    throw err instanceof SourceError
      ? err
      : new SourceError(`cannot read ${file}: ${(err as Error).message}`);
  }
  return out;
}

// Sent as recorded, but these: the signature is made afresh, and the length is that of the body.
const REMADE = new Set(['x-service-signature', 'content-length', 'host', 'connection']);

/** `x-service-webhook-id` as the spec spells it, `X-Service-Webhook-Id`. */
const spelled = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash, c: string) => dash + c.toUpperCase());

export async function sendRecorded(
  recorded: Recorded,
  to: string,
  secret: string,
): Promise<DeliveryOutcome> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(recorded.headers)) {
    if (!REMADE.has(name.toLowerCase())) {
      headers[spelled(name.toLowerCase())] = value;
    }
  }
  // spec, Signature verification: `t` is the time of sending, so a receiver's five minutes hold.
  headers['X-Service-Signature'] = signature(
    [secret],
    recorded.body,
    Math.floor(Date.now() / 1000),
  );
  const reply = await send({ method: 'POST', url: to, headers, body: recorded.body });
  const named = (key: string) => headers[key] ?? '-';
  return {
    event: named('X-Service-Event'),
    delivery: named('X-Service-Delivery'),
    status: 'error' in reply ? null : reply.status,
    error: 'error' in reply ? reply.error : null,
  };
}
