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
  // On PostgreSQL the request's door loaded whichever workspace holds it (platform/http/residency.ts).
  for (const ws of store.global.values('workspaces')) {
    if (store.isAway(ws.id)) {
      continue;
    }
    const record = store.workspace(ws.id).get(coll, id);
    if (record !== undefined) {
      return { workspaceId: ws.id, record: record as WorkspaceCollections[K] };
    }
  }
  return undefined;
}
