import { z } from '@hono/zod-openapi';

const DEFAULT_LIMIT = 50;

// spec, Pagination 1: 1 to 200, default 50; an out-of-range value falls back to the default.
// A value that is not an integer at all is a wrong type: 400.
export const limitParam = z
  .string()
  .regex(/^([+-]?\d+)?$/, 'must be an integer')
  .optional()
  .transform((text) => {
    // `limit=` says nothing, as if it were left out.
    const n = text === undefined || text === '' ? DEFAULT_LIMIT : Number(text);
    return n >= 1 && n <= 200 ? n : DEFAULT_LIMIT;
  })
  .openapi({
    type: 'integer',
    description: 'Page size, 1 to 200 (default 50); a value out of range falls back to 50',
  });

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** ms since the epoch for an ISO date or date-time (no zone means UTC); undefined if invalid. */
/** An offset's `+` sent unencoded in a query string arrives as a space: `T10:00:00 02:00`. */
export const plusFromSpace = (text: string): string =>
  text.replace(/(T[\d:.]+) (\d{2}:?\d{2})$/i, '$1+$2');

export function parseInstant(sent: string): number | undefined {
  const text = plusFromSpace(sent);
  const date = DATE.exec(text);
  const dateTime = date ? undefined : DATE_TIME.exec(text);
  const parts = date ?? dateTime;
  if (!parts) {
    return undefined;
  }
  const [, y, m, d] = parts.map(Number);
  const day = new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1));
  if (day.getUTCMonth() !== (m ?? 1) - 1 || day.getUTCDate() !== d) {
    return undefined; // 2026-02-30
  }
  if (date) {
    return day.getTime();
  }
  const zone = dateTime?.[7];
  const ms = Date.parse(zone ? text : `${text}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** An ISO date or date-time query value, as an ISO timestamp comparable with stored ones. */
export const instantParam = (description: string) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) {
        return undefined;
      }
      const ms = parseInstant(text);
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: 'must be an ISO date or date-time' });
        return z.NEVER;
      }
      return new Date(ms).toISOString();
    })
    .openapi({ type: 'string', description: `${description}; an ISO date or date-time` });

export const cursorParam = z.string().optional().openapi({
  description: 'The next_cursor of the previous page, exactly as received',
});

/** spec, Pagination 3: what every paged list accepts. */
export const pagingQuery = z.object({
  limit: limitParam,
  cursor: cursorParam,
  updated_since: instantParam('Records changed at or after'),
  created_after: instantParam('Records created at or after'),
  created_before: instantParam('Records created before'),
});

export type PagingQuery = z.output<typeof pagingQuery>;

/** What a service's list needs of a query: a page size and, optionally, the time filters. */
export type ListQuery = { limit: number } & Partial<
  Pick<PagingQuery, 'updated_since' | 'created_after' | 'created_before'>
>;

/** The time filters of a PagingQuery as one predicate over stored timestamps. */
export function timeFilter(q: Partial<PagingQuery>): (rec: Record<string, unknown>) => boolean {
  const { updated_since: since, created_after: after, created_before: before } = q;
  if (since === undefined && after === undefined && before === undefined) {
    return () => true;
  }
  return (rec) => {
    const created = String(rec.created_at ?? '');
    const updated = String(rec.updated_at ?? rec.created_at ?? '');
    return (
      (since === undefined || updated >= since) &&
      (after === undefined || created >= after) &&
      (before === undefined || created < before)
    );
  };
}
