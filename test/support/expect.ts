import { expect } from 'vitest';
import type { Json, Reply } from './harness';

// What most tests assert of an answer, written once.

/** A request that must answer `status`; answers the body. */
export async function ok(res: Promise<Reply> | Reply, status = 200): Promise<Json> {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r.body;
}

/** The spec's error envelope with this status, code and (when given) field; none when not. */
export function expectError(res: Reply, status: number, code: string, field?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.field).toBe(field);
}
