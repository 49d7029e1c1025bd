import { logHolderOf } from '../../deliveries/log-holder';
import { holderOf } from '../../platform/holder-of';
import type { Runtime } from '../../platform/runtime';
import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';

// What a control token's workspace owns, for the control API's door and the web app's alike: a
// thing svc holds for another workspace is refused; a thing svc does not hold at all is left to
// the route, whose answer is its 404.

/** Whether record `id` of `coll` is another workspace's than `wsId`. */
export function recordElsewhere(
  rt: Pick<Runtime, 'store'>,
  coll: Name<WorkspaceCollections>,
  id: string,
  wsId: string,
): boolean {
  if (rt.store.workspace(wsId).get(coll, id) !== undefined) {
    return false;
  }
  if (coll === 'webhooks') {
    // A deleted subscription's delivery log is still its workspace's alone.
    const holder = logHolderOf(rt.store, id);
    return holder !== undefined && holder !== wsId;
  }
  return holderOf(rt.store, coll, id) !== undefined;
}

/** Whether API key `id` is another workspace's. */
export function keyElsewhere(rt: Pick<Runtime, 'store'>, id: string, wsId: string): boolean {
  const key = rt.store.global.get('api_keys', id);
  return key !== undefined && key.workspace_id !== wsId;
}

/** Whether fault `id` may fire for calls beyond workspace `wsId` (any workspace, or another). */
export function faultElsewhere(rt: Pick<Runtime, 'faults'>, id: string, wsId: string): boolean {
  const fault = rt.faults.get(id);
  return fault !== undefined && fault.match.workspace_id?.toLowerCase() !== wsId;
}
