import type { Store, WorkspaceCollections } from '../store';
import type { Name } from '../store/collections';

/**
 * The workspace holding a record, found by its id alone: the control API names records without
 * their workspace (ids are unique across workspaces).
 */
export function holderOf<K extends Name<WorkspaceCollections>>(
  store: Store,
  coll: K,
  id: string,
): { workspaceId: string; record: WorkspaceCollections[K] } | undefined {
  for (const ws of store.global.values('workspaces')) {
    const record = store.workspace(ws.id).get(coll, id);
    if (record !== undefined) {
      return { workspaceId: ws.id, record: record as WorkspaceCollections[K] };
    }
  }
  return undefined;
}
