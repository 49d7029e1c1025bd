import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// A seed fixes a workspace's content, and with it the ids faker drew. Two workspaces made from
// one seed through /__admin must not share ids, so every id drawn is swapped for a fresh one,
// wherever it appears (as an id or as a reference), leaving the content as the seed made it.
export function withFreshIds<T>(records: T, ids: Iterable<string>): T {
  const fresh = new Map<string, string>();
  for (const id of ids) {
    if (UUID.test(id)) {
      fresh.set(id, randomUUID()); // other ids (a counter's name) are not drawn, so they stay
    }
  }
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      return fresh.get(value) ?? value;
    }
    if (Array.isArray(value)) {
      return value.map(walk);
    }
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    }
    return value;
  };
  return walk(records) as T;
}
