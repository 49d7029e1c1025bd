// Shared by the snapshot tests: PUT through the contract-checked client, and the reads they repeat.
import type { Harness, Json, Reply } from '../support/harness';

/** `invalid`: the body breaks the document on purpose, so the contract check expects a 4xx. */
export function put(h: Harness, path: string, body: unknown, invalid = false): Promise<Reply> {
  return h.admin.raw('PUT', path, {
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' },
    invalid,
  });
}

export async function snapshotOf(h: Harness, wsId: string): Promise<Json> {
  const res = await h.admin.get(`/workspaces/${wsId}/snapshot`);
  if (res.status !== 200) {
    throw new Error(`GET snapshot answered ${res.status}: ${res.text}`);
  }
  return res.body;
}

/** How many events a workspace's log holds: a restore must raise none. */
export const eventCount = async (h: Harness, wsId: string): Promise<number> =>
  ((await snapshotOf(h, wsId)).collections.webhook_events ?? []).length;
