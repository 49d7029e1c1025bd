import { UsageError } from '../scenario';
import { asRecord, sendJson } from '../scenario/http';
import { checkKey } from '../scenario/target';
import type { TriggerOptions } from '.';

// Whose changes a trigger makes: --key as given, or a write key made for --workspace (or the
// first workspace), revoked when the trigger is done.

/** Bad usage: an unknown event, a server that is not svc, a workspace that is not there. Exit 2. */
export class TriggerUsage extends Error {}

export interface TriggerKeys {
  write: string;
  read: undefined;
  workspaceId: string;
  /** The key made for this trigger (--workspace, or none given): revoked when done. */
  madeKeyId?: string;
}

/** --key as given; --workspace (or the first workspace) gets a write key made for the trigger. */
export async function credentials(
  base: string,
  origin: string,
  options: TriggerOptions,
): Promise<TriggerKeys> {
  if (options.key !== undefined) {
    const { workspaceId: id, access } = await checkKey(base, options.key);
    if (access === 'read') {
      throw new TriggerUsage(
        'a read-only key cannot make changes: give --key a write key (or --workspace ID)',
      );
    }
    if (typeof id !== 'string') {
      throw new TriggerUsage(
        `--key is not a working key of ${base} (GET /ping names no workspace)`,
      );
    }
    return { write: options.key, read: undefined, workspaceId: id };
  }
  const workspaceId = options.workspace ?? (await firstWorkspace(origin));
  const made = await sendJson(
    'POST',
    `${origin}/__admin/workspaces/${encodeURIComponent(workspaceId)}/keys`,
    { name: 'svc trigger', access: 'write' },
  );
  const key = asRecord(made.body).key;
  const id = asRecord(made.body).id;
  if (made.status === 403) {
    throw new TriggerUsage(
      `--control-token reaches its own workspace alone, not ${workspaceId} (a key for it answered 403)`,
    );
  }
  if (made.status !== 201 || typeof key !== 'string') {
    throw new TriggerUsage(
      `no workspace ${workspaceId} on ${origin} (a key for it answered ${made.status})`,
    );
  }
  return {
    write: key,
    read: undefined,
    workspaceId,
    ...(typeof id === 'string' ? { madeKeyId: id } : {}),
  };
}

/** GET /ping with the key made for --workspace: a workspace without its plan is exit 2. */
export async function checkWorkspace(base: string, keys: TriggerKeys): Promise<void> {
  try {
    await checkKey(base, keys.write, '--workspace');
  } catch (err) {
    if (err instanceof UsageError && /answered 402/.test(err.message)) {
      throw new TriggerUsage(
        `workspace ${keys.workspaceId} has no active subscription (GET /ping answered 402); switch it on first`,
      );
    }
    throw err;
  }
}

async function firstWorkspace(origin: string): Promise<string> {
  const list = await sendJson('GET', `${origin}/__admin/workspaces?limit=1`);
  const first = asRecord(
    Array.isArray(asRecord(list.body).data)
      ? (asRecord(list.body).data as unknown[])[0]
      : undefined,
  );
  if (typeof first.id !== 'string') {
    throw new TriggerUsage(
      `${origin} has no workspace; make one (svc seed, or POST /__admin/workspaces) or pass --key`,
    );
  }
  return first.id;
}
