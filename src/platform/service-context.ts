import type { WorkspaceStore } from '../store';
import { appCredential, type Credential } from './auth/credentials';
import type { Workspace } from './auth/records';
import type { Clock } from './clock';
import { ApiError } from './errors';
import type { Runtime } from './runtime';

/**
 * What a verb runs with: the caller's workspace (its store, its record), the workspace's clock,
 * the caller.
 */
export interface ServiceContext {
  ws: WorkspaceStore;
  workspace: Workspace;
  clock: Clock;
  credential: Credential;
  /** `{app_url}`: the server root; records' `url`s open pages there. */
  appUrl: string;
}

/** What an app-side action (and an event) runs as: the workspace's owner, in the web app. */
export function appContext(
  deps: Pick<Runtime, 'store' | 'clocks'>,
  workspaceId: string,
  appUrl: string,
): ServiceContext {
  const workspace = deps.store.global.get('workspaces', workspaceId);
  if (!workspace) {
    throw new ApiError('not_found', 'no such workspace');
  }
  return {
    ws: deps.store.workspace(workspaceId),
    workspace,
    clock: deps.clocks.of(workspaceId),
    credential: appCredential(workspaceId),
    appUrl,
  };
}
