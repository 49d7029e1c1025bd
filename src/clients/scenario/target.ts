import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../runtime';
import { startServer } from '../../server';
import { hasControlToken } from '../control-token';
import { asRecord, NetworkError, reason, sendJson, useControlToken } from './http';

// Where scenarios run: svc in-process on a fresh store (no --base-url), or any server. svc is
// told apart by its control API (`GET <origin>/__admin/clock` answering `{now}`).

export interface Keys {
  write: string;
  read: string | undefined;
  workspaceId: string | undefined;
}

export interface Target {
  /** The API base, ending in /v1 (or the path given). */
  base: string;
  origin: string;
  /** svc's control API answers here: clock and admin steps can run. */
  control: boolean;
  /** True when each scenario gets a workspace of its own. */
  isolated: boolean;
  /** A server the runner did not start (--base-url): what a scenario subscribes, it unsubscribes. */
  remote: boolean;
  /** The credentials a scenario runs with: a workspace of its own, or the ones given. */
  keysFor(name: string, profile: string): Promise<Keys>;
  close(): Promise<void>;
  /** On SIGINT/SIGTERM: remove what the run made on disk, at once (no waiting for sockets). */
  discard?: () => void;
}

export interface TargetOptions {
  baseUrl?: string;
  key?: string;
  readKey?: string;
  /** A workspace's control token (`svc_ctl_…`): the control API of a shared svc, for it alone. */
  controlToken?: string;
}

/** A usage error: exit 2. */
export class UsageError extends Error {}

export async function openTarget(options: TargetOptions): Promise<Target> {
  if (options.baseUrl === undefined) {
    if (options.key !== undefined || options.readKey !== undefined) {
      throw new UsageError('--key and --read-key go with --base-url');
    }
    if (options.controlToken !== undefined) {
      throw new UsageError('--control-token goes with --base-url');
    }
    return inProcess();
  }
  if (options.controlToken !== undefined) {
    if (options.key === undefined) {
      // A control token reaches one workspace, and makes none: the scenarios run in it.
      throw new UsageError("--control-token goes with --key, a write key of the token's workspace");
    }
    useControlToken(normalizeBase(options.baseUrl).origin, options.controlToken);
  }
  const target = await remote(options.baseUrl, options.key, options.readKey);
  if (options.controlToken !== undefined) {
    await checkControlToken(target);
  }
  return target;
}

/** `http://host:port` and `http://host:port/` become `.../v1`; any other path is kept as given. */
export function normalizeBase(url: string, flag = '--base-url'): { base: string; origin: string } {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new UsageError(`${flag} must be an http: or https: URL, not ${url}`);
  }
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '');
  return { base: `${parsed.origin}${path === '' ? '/v1' : path}`, origin: parsed.origin };
}

/**
 * Whether svc's control API answers at `origin`; a server that cannot be reached is a UsageError
 * naming `given` (the URL as the flag gave it, path and all).
 */
export async function hasControlApi(origin: string, given = origin): Promise<boolean> {
  try {
    const answer = await sendJson('GET', `${origin}/__admin/clock`);
    const body = asRecord(answer.body);
    const code = asRecord(body.error).code;
    if (answer.status === 401 && code === 'unauthorized' && hasControlToken(origin)) {
      throw new UsageError(
        `${given} refused the --control-token given: it is neither the server's admin token nor the control token of one of its workspaces`,
      );
    }
    if (answer.status === 401 && code === 'unauthorized') {
      throw new UsageError(
        `${given} is a shared svc whose control API asks for a token: give --control-token (a workspace's, from POST /__admin/workspaces) with --key, and check it`,
      );
    }
    // A control token reaches its workspace, not the server's clock: the control API is there.
    if (answer.status === 403 && code === 'forbidden') {
      return true;
    }
    const now = body.now;
    return answer.status === 200 && typeof now === 'string' && !Number.isNaN(Date.parse(now));
  } catch (err) {
    if (err instanceof NetworkError) {
      throw new UsageError(`cannot reach ${given}: ${reason(err)}`);
    }
    throw err;
  }
}

/** The control token must reach the workspace of --key, before any step writes into it. */
async function checkControlToken(target: Target): Promise<void> {
  const keys = await target.keysFor('', '');
  if (keys.workspaceId !== undefined) {
    await checkControlReach(target.origin, keys.workspaceId);
  }
}

/**
 * The control API at `origin` must answer for workspace `workspaceId` with the credential given
 * (a control token of another workspace is 403), before anything is written into it.
 */
export async function checkControlReach(origin: string, workspaceId: string): Promise<void> {
  const answer = await sendJson('GET', `${origin}/__admin/workspaces/${workspaceId}/clock`);
  if (answer.status === 401 || answer.status === 403) {
    throw new UsageError(
      `--control-token is not the control token of --key's workspace (${workspaceId}): GET /__admin/workspaces/${workspaceId}/clock answered ${answer.status}`,
    );
  }
}

export interface KeyCheck {
  workspaceId: string | undefined;
  /** `read` or `write`, when /ping says (svc does, under `key.access`). */
  access: string | undefined;
  /** The key's name, when /ping says (`key.name`). */
  name: string | undefined;
}

/**
 * GET /ping with the key, before anything runs: a wrong or revoked key (401), a workspace without
 * an active subscription (402) or a refused key (403) is a UsageError naming the flag. A server
 * without /ping (404) is let through: the scenarios will say what they find.
 */
export async function checkKey(base: string, key: string, flag = '--key'): Promise<KeyCheck> {
  let answer: Awaited<ReturnType<typeof sendJson>>;
  try {
    answer = await sendJson('GET', `${base}/ping`, undefined, key);
  } catch (err) {
    if (err instanceof NetworkError) {
      throw new UsageError(`cannot reach ${base}: ${reason(err)}`);
    }
    throw err;
  }
  const body = asRecord(answer.body);
  const error = asRecord(body.error);
  const code = typeof error.code === 'string' ? ` ${error.code}` : '';
  if (answer.status === 401 || answer.status === 403) {
    throw new UsageError(
      `${flag} is not a working key of ${base} (GET /ping answered ${answer.status}${code}): wrong, revoked or expired`,
    );
  }
  if (answer.status === 402) {
    throw new UsageError(
      `${flag}'s workspace has no active subscription (GET /ping answered 402${code}); switch it on first`,
    );
  }
  const id = body.workspace_id;
  const access = asRecord(body.key).access;
  const name = asRecord(body.key).name;
  return {
    workspaceId: typeof id === 'string' ? id : undefined,
    access: typeof access === 'string' ? access : undefined,
    name: typeof name === 'string' ? name : undefined,
  };
}

async function inProcess(): Promise<Target> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-scenario-'));
  let running: Awaited<ReturnType<typeof startServer>>;
  try {
    running = await startServer({
      port: 0,
      host: '127.0.0.1',
      data: join(dir, 'data.json'),
      seed: false,
      // faithful but for the receiver, which lives on 127.0.0.1
      config: defaultConfig({ allowLocalTargets: true }),
    });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    base: `${running.url}/v1`,
    origin: running.url,
    control: true,
    isolated: true,
    remote: false,
    keysFor: (name, profile) => makeWorkspace(running.url, name, profile),
    async close() {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
    discard() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function remote(url: string, key?: string, readKey?: string): Promise<Target> {
  const { base, origin } = normalizeBase(url);
  const control = await hasControlApi(origin, url);
  if (key === undefined) {
    if (!control) {
      throw new UsageError(
        `--key is needed: ${origin} has no svc control API to make workspaces with`,
      );
    }
    if (readKey !== undefined) {
      throw new UsageError('--read-key goes with --key');
    }
  }
  const write = key === undefined ? undefined : await checkKey(base, key);
  if (write?.access === 'read') {
    // as svc trigger: a read key would fail every step that makes something, one by one
    throw new UsageError(
      `--key must be a write key; ${write.name === undefined ? 'it' : JSON.stringify(write.name)} is read-only`,
    );
  }
  const read = readKey === undefined ? undefined : await checkKey(base, readKey, '--read-key');
  if (read?.access === 'write') {
    throw new UsageError('--read-key is a write key; give it a read-only key');
  }
  if (
    read?.workspaceId !== undefined &&
    write?.workspaceId !== undefined &&
    read.workspaceId !== write.workspaceId
  ) {
    throw new UsageError(
      `--read-key is a key of workspace ${read.workspaceId}, --key of ${write.workspaceId}: give two keys of one workspace`,
    );
  }
  const shared: Keys | undefined =
    key === undefined ? undefined : { write: key, read: readKey, workspaceId: write?.workspaceId };
  return {
    base,
    origin,
    control,
    isolated: key === undefined,
    remote: true,
    keysFor(name, profile) {
      return shared ? Promise.resolve(shared) : makeWorkspace(origin, name, profile);
    },
    close: async () => {},
  };
}

async function makeWorkspace(origin: string, name: string, profile: string): Promise<Keys> {
  const answer = await sendJson('POST', `${origin}/__admin/workspaces`, {
    name: name.slice(0, 200),
    profile,
  });
  const body = asRecord(answer.body);
  const keys = asRecord(body.keys);
  const write = asRecord(keys.write).key;
  const read = asRecord(keys.read).key;
  if (answer.status !== 201 || typeof write !== 'string' || typeof body.id !== 'string') {
    throw new Error(
      `POST ${origin}/__admin/workspaces answered ${answer.status}: ${answer.text.slice(0, 200)}`,
    );
  }
  return { write, read: typeof read === 'string' ? read : undefined, workspaceId: body.id };
}
