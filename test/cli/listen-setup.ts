// Shared by the svc webhook listen tests: starting it, sending it deliveries, a fake svc and an
// app to forward to. Importing it registers the afterEach that closes what a test started.
import type { ChildProcess } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { type FakeSvc, startFakeSvc } from '../listen/fake-svc';
import { BIN, cleanup, collect, type Exit, spawnNode } from '../support/spawn';

export const SECRET = 'whsec_listen_test_secret';
export const RECORD_ID = '7b0c4d2e-1111-4222-8333-94445555aa11';
export const READY = /^svc webhook listen on (http:\/\/127\.0\.0\.1:(\d+))$/m;
export const TIME = '\\d\\d:\\d\\d:\\d\\d';

export const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await cleanup();
  await Promise.all(closers.splice(0).map((close) => close()));
});

export interface Listener {
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  /** Waits (at most 5 s) until stdout matches. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/** `svc webhook listen --port 0 ...args`, once its ready line is out. */
export async function startListen(args: string[]): Promise<Listener> {
  const child = spawnNode([BIN, 'webhook', 'listen', '--port', '0', ...args]);
  const { stdout, stderr } = collect(child);
  const waitFor = (pattern: RegExp, what = `${pattern}`) =>
    until(
      () => pattern.exec(stdout()),
      child,
      () => `${what}\nstdout: ${stdout()}\nstderr: ${stderr()}`,
    );
  const ready = await waitFor(READY, 'the ready line');
  return {
    url: ready[1] as string,
    port: Number(ready[2]),
    stdout,
    stderr,
    waitFor: (pattern) => waitFor(pattern),
    stop: (signal = 'SIGTERM') => stopChild(child, signal),
  };
}

export function until<T>(
  check: () => T | null | undefined,
  child: ChildProcess,
  describe: () => string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 5000;
    const poll = () => {
      const found = check();
      if (found) {
        resolve(found);
      } else if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`svc webhook listen exited before printing ${describe()}`));
      } else if (Date.now() > deadline) {
        reject(new Error(`svc webhook listen did not print ${describe()} within 5 s`));
      } else {
        setTimeout(poll, 10);
      }
    };
    poll();
  });
}

// until() watches a child for an early exit; the in-test app is no child.
export const childless = { exitCode: null, signalCode: null } as unknown as ChildProcess;

export function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<Exit> {
  // 'close', not 'exit': what it printed on the way out is in stdout() by then
  const exited = new Promise<Exit>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
    } else {
      child.once('close', (code, sig) => resolve({ code, signal: sig }));
    }
  });
  child.kill(signal);
  const deadline = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`pid ${child.pid} did not exit within 10 s`)),
      10_000,
    ).unref(),
  );
  return Promise.race([exited, deadline]);
}

export interface SendOptions {
  secrets?: readonly string[];
  t?: number;
  eventId?: string;
  attempt?: number;
  event?: string;
  body?: string;
  signature?: string | null;
}

/** POSTs a delivery as svc would, signed here with node:crypto. */
export async function send(url: string, opts: SendOptions = {}) {
  const event = opts.event ?? 'job.stage_changed';
  const eventId = opts.eventId ?? randomUUID();
  const body =
    opts.body ??
    JSON.stringify({
      id: RECORD_ID,
      object: 'job',
      name: 'Roof – 12 Elm St',
      event_type: event,
      event_id: eventId,
      event_at: new Date().toISOString(),
      event_workspace_id: randomUUID(),
    });
  const t = opts.t ?? Math.floor(Date.now() / 1000);
  const v1s = (opts.secrets ?? [SECRET]).map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`,
  );
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Service-Webhooks/2.0',
    'X-Service-Event': event,
    'X-Service-Delivery': eventId,
    'X-Service-Webhook-Id': 'wh-test',
    'X-Service-Attempt': String(opts.attempt ?? 1),
  };
  if (opts.signature !== null) {
    headers['X-Service-Signature'] = opts.signature ?? `t=${t},${v1s.join(',')}`;
  }
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started, body, eventId };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An in-test app for --forward-to: records what it gets, answers `status`. */
export async function startApp(status = 204): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    received.push({ headers: req.headers, body: Buffer.concat(chunks) });
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

export async function fakeSvc(): Promise<FakeSvc> {
  const svc = await startFakeSvc();
  closers.push(() => svc.close());
  return svc;
}

export const line = (said: string, status: number, attempt = 1) =>
  new RegExp(
    `^${TIME} job\\.stage_changed 7b0c…a11 attempt ${attempt} ${said}, answered ${status}$`,
    'm',
  );
