import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app';
import { isBundleFile, readBundle } from './bundle/file';
import type { Bundle } from './bundle/format';
import { loadBundle, type ServedKey } from './bundle/load';
import type { Config } from './platform/config';
import { ApiError } from './platform/errors';
import { filesDirOf } from './platform/files/storage';
import { continueUnlessTooLarge } from './platform/http/continue';
import { AnswerResponse } from './platform/http/headers';
import { answeredWithoutHost, answerUnparsable, answerUnusable } from './platform/http/unparsable';
import { requestLogFiles } from './platform/request-log';
import type { Runtime } from './platform/runtime';
import { storeMeta } from './platform/store-meta';
import { closeRuntime, createRuntime } from './runtime';
import { seedDataFile, seedInto } from './seed';
import { GLOBAL, Store, storeFiles } from './store';
import { leased } from './store/held';

export interface ServeOptions {
  port: number;
  host: string;
  /** The data file; with `store`, only where this node keeps its request log and uploads. */
  data: string;
  /** A PostgreSQL store (`--store`, `--store-schema`) instead of the data file. */
  store?: { url: string; schema: string } | undefined;
  /** Seed the demo workspace when the data file is missing. */
  seed: boolean;
  config: Config;
}

export interface RunningServer {
  url: string;
  rt: Runtime;
  /** `--data` named a support bundle: its case, served in memory, and the keys made for it. */
  bundle?: { workspaceId: string; workspaceName: string; keys: ServedKey[] } | undefined;
  /** True when this start created the data file (and seeded it, unless --no-seed). */
  created: boolean;
  /**
   * Store transactions committed since this start, whatever made them (an API or control-API
   * write, an idempotency record, a delivery attempt logged, a purge): one a commit, counted by
   * the store's sequence number. Once close() resolves, every one of them is on disk.
   */
  writes(): number;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 1;

/**
 * SVC_PUBLIC_URL: the address records' URLs point at, in GET and deliveries alike, where svc is
 * reached through another (nodes behind a load balancer: decisions.md, Several nodes); undefined
 * when not set. Not an http(s) URL with no path, query or fragment: refused, one line.
 */
export function publicUrlFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const text = env.SVC_PUBLIC_URL?.trim();
  if (text === undefined || text === '') {
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {}
  if (
    url === undefined ||
    !['http:', 'https:'].includes(url.protocol) ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new Error(`SVC_PUBLIC_URL must be an http(s) address with no path: not ${text}`);
  }
  return url.origin;
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const publicUrl = publicUrlFromEnv();
  // decisions.md, Command line: the port is bound before the data file is touched, so a port in
  // use leaves no new (seeded) data file behind.
  const bound = await bind(opts.port, opts.host, opts.config);
  let bundle: Bundle | undefined;
  let opened: { store: Store; fresh: boolean };
  try {
    bundle = (await isBundleFile(opts.data)) ? await readBundle(opts.data) : undefined;
    if (bundle && opts.store) {
      throw new Error(`${opts.data} is a support bundle, served from memory: not with --store`);
    }
    opened = await openStore(opts, bundle, bound.port);
  } catch (err) {
    await bound.close();
    throw err;
  }
  const { store, fresh } = opened;
  const firstSeq = store.seq;
  if (bundle) {
    // decisions.md, Support bundles: the bundle's subscriptions point at the customer's receivers.
    opts.config.heldWebhooks = new Set(
      (bundle.snapshot.collections.webhooks ?? []).map((hook) => hook.id),
    );
  }
  const [requestLogFile] = bundle ? [] : requestLogFiles(opts.data);
  const rt = createRuntime(
    store,
    opts.config,
    requestLogFile,
    bundle ? undefined : filesDirOf(opts.data),
  );
  let served: RunningServer['bundle'];
  if (bundle) {
    try {
      served = await serveBundle(rt, bundle);
    } catch (err) {
      await bound.close();
      const field = err instanceof ApiError && err.field ? ` (${err.field})` : '';
      throw new Error(`cannot serve the bundle ${opts.data}: ${(err as Error).message}${field}`);
    }
  }
  const server = bound.serve(createApp(rt).fetch);
  const url = listening(server, opts, publicUrl);
  rt.scheduler.start();
  void rt.requestLog.load(); // in the background: the first request never waits for it
  const stopParsing = parseInBackground(rt.store, opts.config.log);
  return {
    url,
    rt,
    bundle: served,
    created: fresh && !bundle,
    writes: () => store.seq - firstSeq,
    close: closer(server, rt, stopParsing),
  };
}

/**
 * The store to serve: a bundle's in memory, or the data file's, seeded first when there is none.
 * `fresh`: no data file and no journal were there.
 */
async function openStore(
  opts: ServeOptions,
  bundle: Bundle | undefined,
  port: number,
): Promise<{ store: Store; fresh: boolean }> {
  // A store killed before its first compaction lives only in its journal: that is not missing.
  const fresh = !storeFiles(opts.data).some((file) => existsSync(file));
  if (bundle) {
    // decisions.md, Support bundles: a bundle is evidence, never written to; its case is served
    // from memory, on a clock that starts where the bundle's stood.
    const store = Store.memory();
    startClockAt(store, Date.parse(bundle.clock.now));
    return { store, fresh };
  }
  if (opts.store) {
    // The node's own files (its request log, uploads) go beside --data, made if missing as a
    // data file's folder is.
    await mkdir(dirname(opts.data), { recursive: true });
    // One node of as many as serve the schema (architecture.md, Several nodes), named in each
    // answer's X-Svc-Node: SVC_NODE_NAME, else this machine and port.
    const node = process.env.SVC_NODE_NAME?.trim() || `${hostname()}:${port}`;
    const store = await Store.openPostgres(opts.store.url, opts.store.schema, undefined, node);
    // Under the global scope's lease, so that of nodes started at once on a new schema one
    // seeds it, and the others find it seeded.
    const empty = await leased(store, [GLOBAL], async () => {
      // A schema svc has never written to holds no store meta (a seed, or any write, leaves it).
      const none = store.global.get('meta', 'store') === undefined;
      if (none && opts.seed) {
        await seedInto(store, { seed: DEFAULT_SEED, profile: 'demo' });
      }
      storeMeta(store);
      return none;
    });
    return { store, fresh: empty };
  }
  if (fresh && opts.seed) {
    await seedDataFile(opts.data, { seed: DEFAULT_SEED, profile: 'demo' });
  }
  const { store } = await Store.open(opts.data);
  return { store, fresh };
}

/** A bundle's case loaded into the runtime: its workspace and the keys to call it with. */
async function serveBundle(rt: Runtime, bundle: Bundle): Promise<RunningServer['bundle']> {
  return {
    workspaceId: bundle.snapshot.workspace.id,
    workspaceName: bundle.snapshot.workspace.name,
    keys: await loadBundle(rt, bundle),
  };
}

/** The server's address, which records' URLs then point at; its own answers to broken requests. */
function listening(server: Server, opts: ServeOptions, publicUrl: string | undefined): string {
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const url = `http://${host}:${port}`;
  // decisions.md: records' URLs, in GET and in deliveries alike, point at this server's address;
  // on a wildcard host (0.0.0.0, ::) GET follows the address the caller used.
  const wildcard = opts.host === '0.0.0.0' || opts.host === '::';
  opts.config.publicUrl = publicUrl ?? (wildcard ? `http://localhost:${port}` : url);
  opts.config.appUrlFromRequest = publicUrl === undefined && wildcard;
  server.removeAllListeners('clientError'); // the adapter's, if any: ours answers with the envelope
  server.on('clientError', answerUnparsable(opts.config.publicUrl));
  server.on('checkContinue', continueUnlessTooLarge(server));
  return url;
}

/** The shutdown, run once however often it is asked for. */
function closer(server: Server, rt: Runtime, stopParsing: () => void): () => Promise<void> {
  let closing: Promise<void> | undefined;
  // Shutting down, a request on a connection already open is answered and its connection closed
  // after it: a keep-alive client writing on would otherwise be served until the cut.
  let draining = false;
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      res.shouldKeepAlive = false;
    }
  });
  return () => {
    closing ??= (async () => {
      stopParsing();
      draining = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // A connection whose answer was under way is idle once it is sent: closed then, not at the
      // next request. In-flight requests get a moment to finish; then every connection is cut.
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 10);
      const cut = setTimeout(() => server.closeAllConnections(), 3000);
      await stopped;
      clearInterval(idle);
      clearTimeout(cut);
      await closeRuntime(rt);
    })();
    return closing;
  };
}

/** The clock of a store made in memory starts at `ms` (a bundle's now), behind or ahead of real time. */
function startClockAt(store: Store, ms: number): void {
  storeMeta(store);
  store.transaction((tx) => {
    const meta = tx.global.get('meta', 'store');
    if (meta) {
      tx.global.put('meta', { ...meta, clock_offset_ms: ms - Date.now() });
    }
  });
}

type Fetch = Parameters<typeof getRequestListener>[0];

interface Bound {
  /** The port bound (the one asked for, or the one the system gave for 0). */
  port: number;
  /** Hands requests to the app from now on; those that came early get it too. */
  serve(app: Fetch): Server;
  /** Gives the port back when the start fails. */
  close(): Promise<void>;
}

/** Binds the port at once; a request that arrives before the app is built waits for it. */
async function bind(port: number, hostname: string, config: Config): Promise<Bound> {
  let ready: (app: Fetch) => void = () => {};
  const built = new Promise<Fetch>((resolve) => {
    ready = resolve;
  });
  let handle: Fetch = async (req, env) => (await built)(req, env);
  const server = await listen((req, env) => handle(req, env), port, hostname, config);
  return {
    port: (server.address() as AddressInfo).port,
    serve(app) {
      handle = app;
      ready(app);
      return server;
    },
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections(); // early requests would wait for an app that never comes
      return closed;
    },
  };
}

function listen(fetch: Fetch, port: number, hostname: string, config: Config): Promise<Server> {
  return new Promise((resolve, reject) => {
    // The Host-less and unusable requests Node and the adapter would answer bare get the
    // envelope (unparsable.ts); answer headers wait on the response and go out with the head
    // (headers.ts).
    const origin = () => config.publicUrl;
    const listener = getRequestListener(fetch, { hostname, errorHandler: answerUnusable(origin) });
    const server = createServer(
      { ServerResponse: AnswerResponse, requireHostHeader: false },
      (req, res) => {
        if (!answeredWithoutHost(req, res, origin)) {
          void listener(req, res);
        }
      },
    );
    server.listen(port, hostname);
    server.once('listening', () => resolve(server));
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`port ${port} is already in use on ${hostname}`)
          : err,
      ),
    );
  });
}

const PARSE_AFTER_MS = 100;

/**
 * decisions.md, Store: workspaces of the data file are parsed on first use; the rest are parsed
 * here, one a turn of the event loop, from a moment after the server is up, so the first requests
 * are not held up by data they do not read and every due purge or retry is scheduled soon after.
 */
function parseInBackground(store: Store, log: (line: string) => void): () => void {
  let stopped = false;
  const step = () => {
    try {
      if (!stopped && store.parseNext()) {
        setImmediate(step);
      }
    } catch (err) {
      // The checksum vouched for the file, so this is a fault of svc's: the requests that read
      // that workspace will answer 500; the rest go on.
      log(`svc: ${(err as Error).message}`);
    }
  };
  if (store.waiting > 0) {
    setTimeout(step, PARSE_AFTER_MS).unref();
  }
  return () => {
    stopped = true;
  };
}
