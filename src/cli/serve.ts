import { rmSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type { Command } from 'commander';
import { keyHashExists } from '../platform/auth';
import { randomToken } from '../platform/ids';
import { API_REVISION } from '../platform/openapi/document';
import { DEFAULT_MAX_BYTES } from '../platform/request-log';
import { defaultConfig } from '../runtime';
import { type SeededWorkspace, seededKeys } from '../seed';
import { startServer } from '../server';
import {
  DEFAULT_DATA,
  parseCors,
  parseLogBytes,
  parseMillis,
  parsePort,
  parseRateLimit,
} from './options';
import { clearReadyFile, type ReadyInfo, writeReadyFile } from './ready-file';
import { checkStore, STORE_FLAGS, shownUrl, storeOf } from './store-flags';

export interface Hooks {
  /** Called once the server is warm: bin/svc.cjs saves V8's code cache then. */
  onWarm?: () => void;
}

interface ServeFlags {
  port: number;
  host: string;
  data: string;
  seed: boolean;
  allowLocalTargets: boolean;
  rateLimit: number | 'off';
  webhookCoalesceMs: number;
  cors: '*' | 'off' | string[];
  /** Absent: the default (64 MiB), shown in the help as "64MB" rather than as bytes. */
  requestLogMaxBytes?: number | 'off';
  /** `--admin-token`, else SVC_ADMIN_TOKEN; `auto` makes one. */
  adminToken?: string;
  /** svc made the admin token (`auto`): the banner shows it, once. */
  adminTokenMade?: boolean;
  readyFile?: string;
  /** `--store`, else SVC_STORE: a PostgreSQL URL. */
  store?: string;
  storeSchema: string;
}

export function serveCommand(program: Command, hooks: Hooks): void {
  program
    .command('serve')
    .description('serve the whole API on a JSON-file store')
    .option('--port <n>', 'port to listen on (0 picks a free one)', parsePort, 4010)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--data <file>',
      'data file; created and seeded with a demo workspace when missing; or a support bundle (svc bundle), served from memory',
      DEFAULT_DATA,
    )
    .option('--no-seed', 'start with an empty store when the data file is missing')
    .option(
      '--allow-local-targets',
      'let webhook targets be http: and loopback or private addresses',
      false,
    )
    .option(
      '--rate-limit <n|off>',
      'requests a minute per key',
      parseRateLimit,
      SERVE_DEFAULTS.rateLimit,
    )
    .option(
      '--cors <origins|off>',
      'origins a browser app may call /v1 from: "*" (any), "off", or a comma-separated list',
      parseCors,
      SERVE_DEFAULTS.cors,
    )
    .option(
      '--webhook-coalesce-ms <ms>',
      'how long quick edits to one record gather into one *.updated delivery',
      parseMillis,
      SERVE_DEFAULTS.webhookCoalesceMs,
    )
    .option(
      '--request-log-max-bytes <size|off>',
      'disk the request log may take, both its files together (512KB, 1GB, bytes), or "off" (default: 64MB)',
      parseLogBytes,
    )
    .option(
      '--admin-token <token|auto>',
      'the control API, the inspector and record pages then need this token (or a workspace\'s control token); "auto" makes one and prints it once (default: SVC_ADMIN_TOKEN; none on a loopback address)',
    )
    .option(
      STORE_FLAGS.store,
      `${STORE_FLAGS.storeHelp}; --data then names where this node keeps its request log and uploads`,
    )
    .option(STORE_FLAGS.schema, STORE_FLAGS.schemaHelp, 'svc')
    .option(
      '--ready-file <file>',
      'once listening, write {base_url, app_url, pid, workspaces} there as JSON (removed at start and on a clean stop)',
    )
    .addHelpText(
      'after',
      '\nExample:\n  svc serve --port 4010 --data ./.svc/data.json\n  curl -H "Authorization: Bearer <write key>" http://127.0.0.1:4010/v1/ping\n  svc serve --host 0.0.0.0 --admin-token auto   # a shared server',
    )
    .action((flags: ServeFlags, command: Command) => {
      // An empty SVC_ADMIN_TOKEN is no token, as an unset one.
      const given = flags.adminToken ?? (process.env.SVC_ADMIN_TOKEN || undefined);
      const adminToken = adminTokenOf(given, flags.host);
      if (adminToken instanceof Error) {
        command.error(`error: ${adminToken.message}`, { exitCode: 2 });
      }
      const store = storeOf(flags.store);
      const storeProblem = store === undefined ? undefined : checkStore(store, flags.storeSchema);
      if (storeProblem !== undefined) {
        command.error(`error: ${storeProblem}`, { exitCode: 2 });
      }
      return serve({ ...flags, store, adminToken, adminTokenMade: given === 'auto' }, hooks);
    });
}

/**
 * V8 lets a busy heap grow to up to four times what its last full collection kept before it
 * collects again: a server under steady writes reached 7x its data file (issue 21). Growing by
 * half keeps it near the data; collections come more often, each no longer.
 */
const HEAP_GROWING_PERCENT = 50;

type Running = Awaited<ReturnType<typeof startServer>>;

const out = (line: string) => process.stdout.write(`${line}\n`);

async function serve(flags: ServeFlags, hooks: Hooks): Promise<void> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  if (flags.readyFile !== undefined && !ready(flags.readyFile, clearReadyFile)) {
    return;
  }
  let running: Running;
  try {
    running = await startServer({
      port: flags.port,
      host: flags.host,
      data: flags.data,
      seed: flags.seed,
      store:
        flags.store === undefined ? undefined : { url: flags.store, schema: flags.storeSchema },
      config: serveConfig(flags),
    });
  } catch (err) {
    process.stderr.write(`svc: ${(err as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  banner(flags, running);
  // The handlers are in place before the ready line: a harness may stop svc the moment it reads it.
  // decisions.md, The package and the library: a svc the library started as a child stops when
  // its parent is gone however it went (its stdin, a pipe from the parent, then ends), and takes
  // the temporary folder the library made for it along.
  const library = process.env.SVC_STOP_WITH_PARENT === '1';
  const stop = stopper(
    running,
    flags.readyFile,
    library ? process.env.SVC_REMOVE_ON_STOP : undefined,
  );
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (library) {
    process.stdin.on('end', stop).on('error', stop).resume();
  }
  const info = readyInfo(running);
  if (flags.readyFile !== undefined && !ready(flags.readyFile, (f) => writeReadyFile(f, info))) {
    await running.close();
    return;
  }
  out(`svc listening on ${running.url}`);
  hooks.onWarm?.();
}

/** Addresses only this machine reaches: the control API may stay open on them. */
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/i;

/**
 * The admin token svc starts with: the one given, one made for `auto`, or none on a loopback
 * address. Anywhere else the control API would answer the network: refused without one
 * (decisions.md, Control API access).
 */
export function adminTokenOf(given: string | undefined, host: string): string | undefined | Error {
  if (given === 'auto') {
    return randomToken('svc_adm_');
  }
  if (given !== undefined && given.trim() === '') {
    return new Error('--admin-token is empty: give a token, or auto');
  }
  if (given === undefined && !LOOPBACK.test(host)) {
    return new Error(
      `--host ${host} lets the network reach the control API: start with --admin-token <token> (or auto, or SVC_ADMIN_TOKEN)`,
    );
  }
  return given;
}

/** `svc serve`'s defaults, which the library's in-process server takes too. */
export const SERVE_DEFAULTS = { rateLimit: 120, cors: '*', webhookCoalesceMs: 1000 } as const;

type ConfigFlags = Pick<
  ServeFlags,
  | 'adminToken'
  | 'rateLimit'
  | 'allowLocalTargets'
  | 'webhookCoalesceMs'
  | 'cors'
  | 'requestLogMaxBytes'
>;

/** The server's config for `svc serve`'s flags. */
export function serveConfig(flags: ConfigFlags) {
  return defaultConfig({
    adminToken: flags.adminToken ?? null,
    rateLimit: flags.rateLimit === 'off' ? null : flags.rateLimit,
    allowLocalTargets: flags.allowLocalTargets,
    webhookCoalesceMs: flags.webhookCoalesceMs,
    cors: flags.cors === 'off' ? null : flags.cors,
    requestLogMaxBytes:
      flags.requestLogMaxBytes === 'off' ? null : (flags.requestLogMaxBytes ?? DEFAULT_MAX_BYTES),
  });
}

function banner(flags: ServeFlags, running: Running): void {
  out(`svc ${SVC_VERSION}: Workspace Operations REST API v1 (revision ${API_REVISION})`);
  const made = running.created
    ? flags.seed
      ? ' (new, seeded with a demo workspace)'
      : ' (new, empty)'
    : '';
  if (flags.store === undefined) {
    const kind = running.bundle ? ' (a support bundle: served in memory, never written to)' : made;
    out(`  data      ${flags.data}${kind}`);
  } else {
    // decisions.md, The store on PostgreSQL: the request log and uploads stay on the node.
    out(`  store     ${shownUrl(flags.store)}, schema ${flags.storeSchema}${made}`);
    // decisions.md, Several nodes: one node of as many as serve the schema, named in X-Svc-Node.
    out(`  node      ${running.rt.store.cluster?.node ?? ''} (any number may serve the schema)`);
    out(`  node data ${flags.data} (the request log and uploads)`);
  }
  // decisions.md, Command line: only addresses that answer, the web app's first (where a person
  // starts); the base URL is the prefix of every /v1 path, answered with a credential. The error
  // codes and the signature guide are linked from /docs.
  out(`  app       ${running.url}/`);
  out(`  docs      ${running.url}/docs`);
  out(`  inspector ${running.url}/inspector`);
  out(`  base URL  ${running.url}/v1`);
  out(`  OpenAPI   ${running.url}/v1/openapi.json`);
  out(`  admin API ${running.url}/__admin/openapi.json`);
  if (flags.adminToken !== undefined) {
    // The token is printed only when svc made it (auto): one given is the operator's already.
    out(
      flags.adminTokenMade
        ? `  admin     Authorization: Bearer ${flags.adminToken}  (made now, shown once)`
        : '  admin     the control API and the inspector ask for the admin token',
    );
  }
  if (flags.allowLocalTargets) {
    // decisions.md, Command line: a run that departs from the real service says so
    out(
      '  webhooks  targets may be http: and loopback or private addresses' +
        ' (--allow-local-targets; the real service refuses them)',
    );
  }
  if (running.bundle) {
    // decisions.md, Support bundles: the bundle holds only hashes, so its keys are new, shown here.
    const { workspaceId, workspaceName, keys } = running.bundle;
    out(`  clock     ${running.rt.clock.iso()} (where the bundle's stood)`);
    out("  webhooks  the bundle's subscriptions deliver nothing: their targets are the customer's");
    out(`  workspace ${workspaceName} (${workspaceId}), from the bundle`);
    for (const key of keys) {
      out(`    ${`${key.access} key`.padEnd(10)} ${key.key}  (${key.name}, id ${key.id})`);
    }
  }
  for (const ws of demoWorkspaces(running.rt)) {
    out(`  workspace ${ws.name} (${ws.id})`);
    out(`    write key  ${ws.keys.write.key}`);
    out(`    read key   ${ws.keys.read.key}`);
  }
}

/** Does `act` to the ready file; a failure is said in one line, exit 1. */
function ready(file: string, act: (file: string) => void): boolean {
  try {
    act(file);
    return true;
  } catch (err) {
    process.stderr.write(`svc: cannot write --ready-file ${file}: ${(err as Error).message}\n`);
    process.exitCode = 1;
    return false;
  }
}

/** What --ready-file holds: where svc listens, and the workspaces whose keys the banner shows. */
export function readyInfo(running: Running): ReadyInfo {
  return {
    base_url: `${running.url}/v1`,
    app_url: running.url,
    pid: process.pid,
    workspaces: [...bundleWorkspace(running.bundle), ...demoWorkspaces(running.rt)],
  };
}

/** A served bundle's workspace with the keys made for it. */
function bundleWorkspace(served: Running['bundle']): ReadyInfo['workspaces'] {
  const pair = (access: 'write' | 'read') => {
    const key = served?.keys.find((k) => k.access === access);
    return key && { id: key.id, key: key.key };
  };
  const [write, read] = [pair('write'), pair('read')];
  return served && write && read
    ? [{ id: served.workspaceId, name: served.workspaceName, keys: { write, read } }]
    : [];
}

/** SIGINT or SIGTERM: a clean shutdown, and a second signal ends svc at once. */
function stopper(
  running: Running,
  readyFile: string | undefined,
  removeAfter: string | undefined,
): () => void {
  let signals = 0;
  return () => {
    if (++signals > 1) {
      process.exit(1);
    }
    running.close().then(
      () => {
        if (readyFile !== undefined) {
          clearReadyFile(readyFile);
        }
        if (removeAfter) {
          rmSync(removeAfter, { recursive: true, force: true });
        }
        // decisions.md, Command line: the count is of commits since start, all on disk by now
        const writes = running.writes();
        const plural = writes === 1 ? 'write' : 'writes';
        out(
          running.bundle
            ? `svc stopped: ${writes} ${plural} discarded (a bundle is served from memory)`
            : `svc stopped: ${writes} ${plural} flushed`,
        );
        process.exit(0);
      },
      (err: Error) => {
        process.stderr.write(`svc: shutting down failed: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
}

/** The seeded workspaces whose keys still work, re-derived from the seed the file records. */
function demoWorkspaces(rt: Running['rt']): SeededWorkspace[] {
  const seeded = rt.store.global.get('meta', 'store')?.seeded;
  if (!seeded) {
    return [];
  }
  const found: SeededWorkspace[] = [];
  const keys = seededKeys(seeded.seed, seeded.profile, 0);
  const writeKey = rt.store.global.get('api_keys', keys.write.id);
  const ws = writeKey && rt.store.global.get('workspaces', writeKey.workspace_id);
  const live = (k: { id: string; key: string }) =>
    keyHashExists(rt.store.global, k.key) &&
    rt.store.global.get('api_keys', k.id)?.revoked_at === null;
  if (ws && live(keys.write) && live(keys.read)) {
    found.push({ id: ws.id, name: ws.name, keys });
  }
  return found;
}
