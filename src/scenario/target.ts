import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../runtime';
import { startServer } from '../server';
import { asRecord, NetworkError, sendJson } from './http';

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
  /** True when each scenario gets a workspace of its own (and its subscriptions go with it). */
  isolated: boolean;
  /** The credentials a scenario runs with: a workspace of its own, or the ones given. */
  keysFor(name: string, profile: string): Promise<Keys>;
  close(): Promise<void>;
}

export interface TargetOptions {
  baseUrl?: string;
  key?: string;
  readKey?: string;
}

/** A usage error: exit 2. */
export class UsageError extends Error {}

export async function openTarget(options: TargetOptions): Promise<Target> {
  if (options.baseUrl === undefined) {
    if (options.key !== undefined || options.readKey !== undefined) {
      throw new UsageError('--key and --read-key go with --base-url');
    }
    return inProcess();
  }
  return remote(options.baseUrl, options.key, options.readKey);
}

/** `http://host:port` and `http://host:port/` become `.../v1`; any other path is kept as given. */
export function normalizeBase(url: string): { base: string; origin: string } {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new UsageError(`--base-url must be an http: or https: URL, not ${url}`);
  }
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '');
  return { base: `${parsed.origin}${path === '' ? '/v1' : path}`, origin: parsed.origin };
}

export async function hasControlApi(origin: string): Promise<boolean> {
  try {
    const answer = await sendJson('GET', `${origin}/__admin/clock`);
    const now = asRecord(answer.body).now;
    return answer.status === 200 && typeof now === 'string' && !Number.isNaN(Date.parse(now));
  } catch (err) {
    if (err instanceof NetworkError) {
      return false;
    }
    throw err;
  }
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
    keysFor: (name, profile) => makeWorkspace(running.url, name, profile),
    async close() {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function remote(url: string, key?: string, readKey?: string): Promise<Target> {
  const { base, origin } = normalizeBase(url);
  const control = await hasControlApi(origin);
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
  let shared: Promise<Keys> | undefined;
  return {
    base,
    origin,
    control,
    isolated: key === undefined,
    keysFor(name, profile) {
      if (key === undefined) {
        return makeWorkspace(origin, name, profile);
      }
      shared ??= workspaceOf(base, key).then((workspaceId) => ({
        write: key,
        read: readKey,
        workspaceId,
      }));
      return shared;
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

/** The key's workspace, from GET /ping (undefined when the server does not say). */
async function workspaceOf(base: string, key: string): Promise<string | undefined> {
  try {
    const answer = await sendJson('GET', `${base}/ping`, undefined, key);
    const id = asRecord(answer.body).workspace_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
