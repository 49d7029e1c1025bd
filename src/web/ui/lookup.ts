import { holderOf } from '../../platform/holder-of';
import type { Runtime } from '../../platform/runtime';
import { appContext, type ServiceContext } from '../../platform/service-context';
import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';

type Coll = Name<WorkspaceCollections>;

/**
 * A record named by its id alone (a page's address carries no workspace), with its workspace as
 * the owner sees it in the web app; undefined when no workspace holds it. Deleted records are
 * found too: their page says so.
 */
export function lookup<K extends Coll>(
  rt: Runtime,
  coll: K,
  id: string,
  appUrl: string,
): { ctx: ServiceContext; rec: WorkspaceCollections[K] } | undefined {
  const held = holderOf(rt.store, coll, id.toLowerCase());
  return held && { ctx: appContext(rt, held.workspaceId, appUrl), rec: held.record };
}
