import { type Context, Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../platform/app-env';
import type { PageDeps } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import { lookup } from './lookup';
import { notFoundPage } from './not-found';

type Coll = Name<WorkspaceCollections>;

/** A record with its workspace as the owner sees it. */
export interface Found<K extends Coll> {
  ctx: ServiceContext;
  rec: WorkspaceCollections[K];
}

/** The record a page's `:id` names, with its workspace as the owner sees it; undefined: 404. */
export function recordOf<K extends Coll>(
  deps: PageDeps,
  c: Context<AppEnv>,
  coll: K,
  id: string | undefined = c.req.param('id'),
): Found<K> | undefined {
  if (id === undefined || id === '') {
    return undefined;
  }
  return lookup(deps.rt, coll, id, appUrlFor(deps.rt.config, c.req.url));
}

/** GET `path`: the page of the record its `:id` names, or the 404 page naming `noun`. */
export function recordPage<K extends Coll>(
  deps: PageDeps,
  path: string,
  coll: K,
  noun: string,
  show: (c: Context<AppEnv>, found: Found<K>) => Response | Promise<Response>,
): Hono<AppEnv> {
  return new Hono<AppEnv>().get(path, (c) => {
    const found = recordOf(deps, c, coll);
    return found ? show(c, found) : notFoundPage(c, noun);
  });
}
