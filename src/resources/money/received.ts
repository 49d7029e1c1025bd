import type { WorkspaceCollections } from '../../store';

/** A payment counts as money in hand once it is no longer only expected. */
export const isReceived = (p: Pick<WorkspaceCollections['payments'], 'status'>) =>
  p.status !== 'expected';
