import type { Position, Rec } from '../../store';
import { createdAt } from '../../store/order';
import type { Runtime } from '../runtime';
import type { ServiceContext } from '../service-context';
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
  rt: Pick<Runtime, 'cursors'>,
  ctx: ServiceContext,
  list: string,
  q: Pick<PagingQuery, 'cursor'>,
): Position | undefined {
  return q.cursor === undefined
    ? undefined
    : rt.cursors.decode(`${ctx.workspace.id}:${list}`, q.cursor);
}

export function listBody<R extends Rec, T>(
  rt: Pick<Runtime, 'cursors'>,
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
  rt: Pick<Runtime, 'cursors'>,
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
 * listBody as JSON in UTF-8, from the kept JSON of each record (see ShownJson): the same bytes
 * JSON.stringify of listBody would give, put together without a string of the whole page.
 */
export function listJson<R extends Rec>(
  rt: Pick<Runtime, 'cursors'>,
  ctx: ServiceContext,
  list: string,
  page: { items: R[]; hasMore: boolean },
  json: (rec: R) => Buffer<ArrayBuffer>,
): Buffer<ArrayBuffer> {
  return pageJson(page.items.map(json), page.hasMore, nextCursor(rt, ctx, list, page));
}

/** A list that is not paged (lookups, searches): everything in one page. */
export function wholeList<T>(data: T[]): ListBody<T> {
  return { object: 'list', data, has_more: false, next_cursor: null };
}

/** wholeList as JSON in UTF-8, from the JSON of each record. */
export const wholeListJson = (jsons: Buffer<ArrayBuffer>[]): Buffer<ArrayBuffer> =>
  pageJson(jsons, false, null);

const LIST_HEAD = Buffer.from('{"object":"list","data":[');
const COMMA = Buffer.from(',');

function pageJson(
  jsons: Buffer<ArrayBuffer>[],
  hasMore: boolean,
  cursor: string | null,
): Buffer<ArrayBuffer> {
  const parts: Buffer<ArrayBuffer>[] = [LIST_HEAD];
  for (let i = 0; i < jsons.length; i++) {
    if (i > 0) {
      parts.push(COMMA);
    }
    parts.push(jsons[i] as Buffer<ArrayBuffer>);
  }
  parts.push(Buffer.from(`],"has_more":${hasMore},"next_cursor":${JSON.stringify(cursor)}}`));
  return Buffer.concat(parts);
}
