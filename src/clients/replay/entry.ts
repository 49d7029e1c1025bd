import { z } from 'zod';

// One request-log entry as `GET /__admin/requests` lists it and `?format=jsonl` exports it: what
// a replay reads of it. Fields it does not need (duration_ms, credential_kind...) may be absent.
export const SourceEntrySchema = z.object({
  id: z.string().optional(),
  at: z.string(),
  method: z.string().min(1),
  path: z.string(),
  query: z.record(z.string(), z.string()).default({}),
  status: z.number().int(),
  key_id: z.string(),
  workspace_id: z.string(),
  request_headers: z.record(z.string(), z.string()).default({}),
  request_body: z.string().nullable().default(null),
  request_body_truncated: z.boolean().default(false),
  response_body: z.string().nullable().default(null),
  response_body_truncated: z.boolean().default(false),
  /** The injected fault the call got (svc's /__admin/faults). */
  fault: z.string().optional(),
});

export type SourceEntry = z.output<typeof SourceEntrySchema>;

/** A line of a source as an entry, or why it is none (the line number is the caller's). */
export function parseEntry(line: string): SourceEntry | string {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  const parsed = SourceEntrySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `not a request-log entry (${issue?.path.join('.') || 'the line'}: ${issue?.message})`;
  }
  if (Number.isNaN(Date.parse(parsed.data.at))) {
    return 'not a request-log entry (at: not a date-time)';
  }
  return parsed.data;
}
