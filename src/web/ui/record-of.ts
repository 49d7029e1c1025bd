import type { Context } from 'hono';
import { type AppEnv, appUrlFor } from '../../platform/app-env';
import type { PageDeps } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import { lookup } from './lookup';

/** The record a page's `:id` names, with its workspace as the owner sees it; undefined: 404. */
export function recordOf<K extends Name<WorkspaceCollections>>(
  deps: PageDeps,
  c: Context<AppEnv>,
  coll: K,
  id: string | undefined = c.req.param('id'),
): { ctx: ServiceContext; rec: WorkspaceCollections[K] } | undefined {
  if (id === undefined || id === '') {
    return undefined;
  }
  return lookup(deps.rt, coll, id, appUrlFor(deps.rt.config, c.req.url));
}
