import type { Position, Rec } from '../../store';
import { createdAt } from '../../store/order';
import type { Platform, ServiceContext } from '../context';
import type { PagingQuery } from './query';

export { Cursors } from './cursors';
export {
  cursorParam,
  instantParam,
  type ListQuery,
  limitParam,
  type PagingQuery,
  pagingQuery,
  parseInstant,
  plusFromSpace,
  timeFilter,
} from './query';

export interface ListBody<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Where a page starts: the decoded cursor, checked against this workspace and list. */
export function pageStart(
  rt: Pick<Platform, 'cursors'>,
  ctx: ServiceContext,
  list: string,
  q: Pick<PagingQuery, 'cursor'>,
): Position | undefined {
  return q.cursor === undefined
    ? undefined
    : rt.cursors.decode(`${ctx.workspace.id}:${list}`, q.cursor);
}

export function listBody<R extends Rec, T>(
  rt: Pick<Platform, 'cursors'>,
  ctx: ServiceContext,
  list: string,
  page: { items: R[]; hasMore: boolean },
  present: (rec: R) => T,
): ListBody<T> {
  return {
    object: 'list',
    data: page.items.map(present),
    has_more: page.hasMore,
    next_cursor: nextCursor(rt, ctx, list, page),
  };
}

function nextCursor<R extends Rec>(
  rt: Pick<Platform, 'cursors'>,
  ctx: ServiceContext,
  list: string,
  page: { items: R[]; hasMore: boolean },
): string | null {
  const last = page.items.at(-1);
  return page.hasMore && last
    ? rt.cursors.encode(`${ctx.workspace.id}:${list}`, { created_at: createdAt(last), id: last.id })
    : null;
}

/**
 * listBody as JSON text, from the JSON text of each record (see ShownTexts): the same bytes
 * JSON.stringify of listBody would give.
 */
export function listText<R extends Rec>(
  rt: Pick<Platform, 'cursors'>,
  ctx: ServiceContext,
  list: string,
  page: { items: R[]; hasMore: boolean },
  text: (rec: R) => string,
): string {
  return pageText(page.items.map(text), page.hasMore, nextCursor(rt, ctx, list, page));
}

/** A list that is not paged (lookups, searches): everything in one page. */
export function wholeList<T>(data: T[]): ListBody<T> {
  return { object: 'list', data, has_more: false, next_cursor: null };
}

/** wholeList as JSON text, from the JSON text of each record. */
export const wholeListText = (texts: string[]): string => pageText(texts, false, null);

const pageText = (texts: string[], hasMore: boolean, cursor: string | null): string =>
  `{"object":"list","data":[${texts.join(',')}],"has_more":${hasMore},"next_cursor":${JSON.stringify(cursor)}}`;
