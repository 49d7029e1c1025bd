import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import type { Config } from './platform/context';
import { requestLogFiles } from './platform/request-log';
import { createRuntime, type Runtime } from './runtime';
import { seedDataFile } from './seed';
import { Store, storeFiles } from './store';

export interface ServeOptions {
  port: number;
  host: string;
  data: string;
  /** Seed the demo workspace when the data file is missing. */
  seed: boolean;
  config: Config;
}

export interface RunningServer {
  url: string;
  rt: Runtime;
  /** True when this start created the data file (and seeded it, unless --no-seed). */
  created: boolean;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 1;

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  // A store killed before its first compaction lives only in its journal: that is not missing.
  const fresh = !storeFiles(opts.data).some((file) => existsSync(file));
  if (fresh && opts.seed) {
    await seedDataFile(opts.data, { seed: DEFAULT_SEED, profile: 'demo' });
  }
  const { store } = await Store.open(opts.data);
  const [requestLogFile] = requestLogFiles(opts.data);
  const rt = createRuntime(store, opts.config, requestLogFile);
  const app = createApp(rt);

  let server: Server;
  try {
    server = await listen(app.fetch, opts.port, opts.host);
  } catch (err) {
    await store.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const url = `http://${host}:${port}`;
  // decisions.md: records' URLs, in GET and in deliveries alike, point at this server's address;
  // on a wildcard host (0.0.0.0, ::) GET follows the address the caller used.
  const wildcard = opts.host === '0.0.0.0' || opts.host === '::';
  opts.config.publicUrl = wildcard ? `http://localhost:${port}` : url;
  opts.config.appUrlFromRequest = wildcard;
  rt.scheduler.start();
  void rt.requestLog.load(); // in the background: the first request never waits for it
  const stopParsing = parseInBackground(rt.store, opts.config.log);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stopParsing();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // In-flight requests get a moment to finish; then every connection is cut.
      const cut = setTimeout(() => server.closeAllConnections(), 3000);
      await stopped;
      clearTimeout(cut);
      rt.scheduler.stop();
      // Sends in flight are cut short, not logged: their deliveries go again after a restart.
      rt.deliveries.stop();
      await rt.scheduler.idle();
      await rt.requestLog.close();
      await store.close();
    })();
    return closing;
  };
  return { url, rt, created: fresh, close };
}

function listen(
  fetch: (req: Request) => Response | Promise<Response>,
  port: number,
  hostname: string,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }) as Server;
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
  if (store.unparsed > 0) {
    setTimeout(step, PARSE_AFTER_MS).unref();
  }
  return () => {
    stopped = true;
  };
}
