import { expect } from 'vitest';
import type { Client, Json } from './harness';

export interface Walked {
  /** Every record of every page, in the order the pages gave them. */
  data: Json[];
  pages: number;
}

/**
 * Follows a list's next_cursor from the first page to the last (spec, Pagination 2), checking
 * each page on the way: 200, at most `limit` records, has_more exactly when a cursor follows.
 */
export async function walkPages(
  client: Client,
  path: string,
  query: Record<string, string | number> = {},
): Promise<Walked> {
  const data: Json[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await client.get(path, { query: cursor ? { ...query, cursor } : query });
    expect(page.status, page.text).toBe(200);
    if (typeof query.limit === 'number') {
      expect(page.body.data.length).toBeLessThanOrEqual(query.limit);
    }
    expect(page.body.has_more).toBe(page.body.next_cursor !== null);
    data.push(...page.body.data);
    cursor = page.body.next_cursor;
    pages++;
  } while (cursor);
  return { data, pages };
}

/** The ids of records, in order. */
export const idsIn = (data: Json[]): string[] => data.map((r: { id: string }) => r.id);
