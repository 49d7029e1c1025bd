import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './child';
import { allPages, type Call, controlApi } from './control';
import { SvcError } from './errors';
import type { Running } from './running';
import type {
  AuthorizeInput,
  Delivery,
  Fault,
  FaultInput,
  LoggedRequest,
  RequestFilters,
  StartOptions,
  Svc,
  SvcClock,
  SvcWorkspace,
  WorkspaceOptions,
} from './types';

// The library (docs/guides/testing.md): svc started from a test suite's own setup in one line.
// It is `svc serve` (a child process, or the same server in this process), driven through the
// control API as any client drives it: svc, not a second implementation of it.

export type * from './types';
export { SvcError };

const PROFILES = ['empty', 'small', 'demo'];

/** The options as `svc serve` would take them; a wrong one is a TypeError naming it. */
function checked(options: StartOptions) {
  const { port = 0, rateLimit = 120, profile = 'empty' } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError(`startSvc: port is an integer from 0 to 65535, not ${port}`);
  }
  if (rateLimit !== 'off' && (!Number.isInteger(rateLimit) || rateLimit < 1)) {
    throw new TypeError(`startSvc: rateLimit is a whole number of requests (1 or more) or 'off'`);
  }
  if (!PROFILES.includes(profile)) {
    throw new TypeError(`startSvc: profile is one of ${PROFILES.join(', ')}, not ${profile}`);
  }
  if (options.store !== undefined && !/^postgres(ql)?:\/\//.test(options.store)) {
    throw new TypeError('startSvc: store is a postgres:// URL');
  }
  const store =
    options.store === undefined
      ? undefined
      : { url: options.store, schema: options.storeSchema ?? 'svc' };
  return {
    port,
    rateLimit,
    profile,
    store,
    allowLocalTargets: options.allowLocalTargets === true,
  };
}

/** Starts svc; answers it with a workspace of its own, made for this start. */
export async function startSvc(options: StartOptions = {}): Promise<Svc> {
  const { port, rateLimit, profile, store, allowLocalTargets } = checked(options);
  const dir = await mkdtemp(join(tmpdir(), 'svc-'));
  const data = options.data ?? join(dir, 'data.json');
  let running: Running;
  try {
    running = options.inProcess
      ? await (await import('./in-process')).startInProcess({
          data,
          store,
          port,
          rateLimit,
          allowLocalTargets,
        })
      : await startChild({
          data,
          store,
          tempDir: dir,
          readyFile: join(dir, 'ready.json'),
          port,
          rateLimit,
          allowLocalTargets,
        });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    // One kind of error for a start that failed, in a child or in this process.
    const why = (err as Error).message;
    throw why.startsWith('svc did not start')
      ? err
      : new Error(`svc did not start: ${why}`, { cause: err });
  }
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= running.stop().finally(() => rm(dir, { recursive: true, force: true }));
    return stopped;
  };
  try {
    const call = controlApi(running.appUrl);
    const workspace = await makeWorkspace(call, { profile, ...pick(options, 'seed') });
    return handleOf(running, call, workspace, stop);
  } catch (err) {
    await stop();
    throw err;
  }
}

/** What startSvc answers: svc, its workspace, and the control API's tools as calls. */
function handleOf(
  running: Running,
  call: Call,
  workspace: SvcWorkspace,
  stop: () => Promise<void>,
): Svc {
  return {
    baseUrl: `${running.appUrl}/v1`,
    appUrl: running.appUrl,
    pid: running.pid,
    workspace,
    newWorkspace: (opts = {}) => makeWorkspace(call, opts),
    clock: clockAt(call, '/clock'),
    faults: {
      add: (fault: FaultInput) => call<Fault>('POST', '/faults', fault),
      clear: async () => (await call<{ deleted: number }>('DELETE', '/faults')).deleted,
    },
    oauth: {
      authorize: (input: AuthorizeInput) =>
        call<{ location: string }>('POST', '/oauth/authorize', input),
    },
    requests: (filters: RequestFilters = {}) =>
      allPages<LoggedRequest>(call, `/requests${queryOf({ ...filters, limit: 100 })}`),
    deliveries: (webhookId: string) =>
      allPages<Delivery>(
        call,
        `/webhooks/${encodeURIComponent(webhookId)}/deliveries${queryOf({ limit: 100 })}`,
      ),
    stop,
  };
}

const pick = <T extends object, K extends keyof T>(o: T, key: K): Partial<Pick<T, K>> =>
  o[key] === undefined ? {} : ({ [key]: o[key] } as Pick<T, K>);

const queryOf = (params: Record<string, string | number | undefined>): string => {
  const given = Object.entries(params).flatMap(([k, v]): [string, string][] =>
    v === undefined ? [] : [[k, String(v)]],
  );
  return given.length === 0 ? '' : `?${new URLSearchParams(given)}`;
};

interface MadeWorkspace {
  id: string;
  name: string;
  keys: { write: { id: string; key: string }; read: { id: string; key: string } };
  control_token: string;
}

/** POST /__admin/workspaces: a workspace, its two keys and its control token. */
async function makeWorkspace(call: Call, opts: WorkspaceOptions): Promise<SvcWorkspace> {
  const made = await call<MadeWorkspace>('POST', '/workspaces', {
    ...pick(opts, 'profile'),
    ...pick(opts, 'seed'),
    ...pick(opts, 'name'),
    ...(opts.expiresInSeconds === undefined ? {} : { expires_in_seconds: opts.expiresInSeconds }),
  });
  const path = `/workspaces/${made.id}`;
  return {
    id: made.id,
    name: made.name,
    keys: { write: made.keys.write.key, read: made.keys.read.key },
    keyIds: { write: made.keys.write.id, read: made.keys.read.id },
    controlToken: made.control_token,
    clock: clockAt(call, `${path}/clock`),
    delete: async () => {
      await call('DELETE', path);
    },
  };
}

/** The clock at `path` (the server's, or a workspace's). */
function clockAt(call: Call, path: string): SvcClock {
  const now = async (body?: unknown) =>
    (await call<{ now: string }>(body === undefined ? 'GET' : 'POST', path, body)).now;
  return {
    now: () => now(),
    advance: (seconds: number) => now({ advance_seconds: seconds }),
    set: (instant: string | Date) =>
      now({ set: typeof instant === 'string' ? instant : instant.toISOString() }),
  };
}
