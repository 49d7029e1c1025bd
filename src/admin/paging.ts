import { ApiError } from '../platform/errors';
import type { Page } from '../platform/family';
import { cursorParam, type ListBody, limitParam } from '../platform/paging';
import type { Runtime } from '../platform/runtime';
import type { Position, Rec } from '../store';

// decisions.md, Control API: the control API's lists page as the public API's do (spec,
// Pagination): the same `limit` and `cursor`, cursors sealed by the same Cursors. A public
// cursor is bound to its workspace and list; these lists may span workspaces, so theirs is
// bound to the list alone (`admin:<list>`), which no public scope (`<uuid>:<list>`) can equal.

/** The query parameters every paged control-API list takes. */
export const adminPaging = { limit: limitParam, cursor: cursorParam };

export type { Page } from '../platform/family';

/** A page of `list`: the cursor opened for it, the next one sealed for it. */
export function adminPage<T, U>(
  rt: Pick<Runtime, 'cursors'>,
  list: string,
  q: { cursor?: string | undefined },
  scan: (after: Position | undefined) => Page<T>,
  at: (item: T) => Position,
  present: (item: T) => U,
): ListBody<U> {
  const scope = `admin:${list}`;
  const page = scan(q.cursor === undefined ? undefined : rt.cursors.decode(scope, q.cursor));
  const last = page.items.at(-1);
  return {
    object: 'list',
    data: page.items.map(present),
    has_more: page.hasMore,
    next_cursor: page.hasMore && last !== undefined ? rt.cursors.encode(scope, at(last)) : null,
  };
}

/** Where a record sits in a list: its created_at and id, as the store orders them. */
export const positionOf = (rec: Rec & { created_at: string }): Position => ({
  created_at: rec.created_at,
  id: rec.id,
});

/**
 * A page of a list kept in its own order (the workspaces, in the order they were made), after
 * the item a cursor names. A sealed cursor whose item is gone names no place in it: 400.
 */
export function pageInOrder<T extends Rec>(
  all: T[],
  after: Position | undefined,
  limit: number,
): Page<T> {
  let start = 0;
  if (after !== undefined) {
    start = all.findIndex((item) => item.id === after.id) + 1;
    if (start === 0) {
      throw new ApiError(
        'invalid_request',
        'cursor names nothing in this list any more; start again without it',
        'cursor',
      );
    }
  }
  return { items: all.slice(start, start + limit), hasMore: all.length > start + limit };
}
