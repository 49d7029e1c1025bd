import { SERVE_DEFAULTS, serveConfig } from '../cli/serve';
import { startServer } from '../server';
import type { Running } from './running';

// svc inside the caller's own process: the server `svc serve` starts, with its defaults, minus
// what belongs to a process of its own (signals, the banner, V8's heap settings).

export interface InProcessOptions {
  data: string;
  store: { url: string; schema: string } | undefined;
  port: number;
  rateLimit: number | 'off';
  allowLocalTargets: boolean;
}

export async function startInProcess(opts: InProcessOptions): Promise<Running> {
  const running = await startServer({
    port: opts.port,
    host: '127.0.0.1',
    data: opts.data,
    store: opts.store,
    seed: false,
    config: serveConfig({
      rateLimit: opts.rateLimit,
      allowLocalTargets: opts.allowLocalTargets,
      cors: SERVE_DEFAULTS.cors,
      webhookCoalesceMs: SERVE_DEFAULTS.webhookCoalesceMs,
    }),
  });
  return { appUrl: running.url, pid: process.pid, stop: () => running.close() };
}
