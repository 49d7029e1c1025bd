// Webhook deliveries from a real `svc serve` to a receiver in this process, on 127.0.0.1.
// Fan-out: one change (POST /v1/jobs) raises job.created for 100 subscriptions; timed from the
// POST's answer to the 100th delivery received, repeated. Stream: jobs created at a steady rate
// for a few seconds, each delivered to 10 subscriptions; deliveries per second received while the
// stream runs, and the lag of every delivery (received − event_at, both on this machine's clock).
// Every delivery's signature is checked. Run: npm run bench:deliveries
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ensureBuilt, start } from './server-process';

const FAN_OUT = 100;
const FAN_OUT_CHANGES = 10;
const STREAM_SUBSCRIPTIONS = 10;
const STREAM_JOBS_PER_SECOND = 150;
const STREAM_SECONDS = 5;
const TARGET_PER_SECOND = 1000;

interface Arrival {
  at: number;
  lagMs: number;
}

/** Counts what arrives, checks each signature, answers 200. */
class Receiver {
  readonly arrivals: Arrival[] = [];
  badSignatures = 0;
  secrets = new Map<string, string>();
  #server: Server;
  #waiter: { n: number; resolve: () => void } | undefined;

  constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = Date.now();
        const body = Buffer.concat(chunks).toString('utf8');
        const secret = this.secrets.get(String(req.headers['x-service-webhook-id']));
        const header = String(req.headers['x-service-signature'] ?? '');
        const t = /t=(\d+)/.exec(header)?.[1];
        const mac = secret && createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
        if (!mac || !header.includes(`v1=${mac}`)) {
          this.badSignatures += 1;
        }
        const eventAt = Date.parse((JSON.parse(body) as { event_at: string }).event_at);
        this.arrivals.push({ at, lagMs: at - eventAt });
        res.writeHead(200).end();
        if (this.#waiter && this.arrivals.length >= this.#waiter.n) {
          this.#waiter.resolve();
          this.#waiter = undefined;
        }
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  until(n: number, ms = 60_000): Promise<void> {
    if (this.arrivals.length >= n) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`only ${this.arrivals.length} of ${n} deliveries arrived`)),
        ms,
      );
      this.#waiter = {
        n,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

async function call(url: string, method: string, body: unknown, key?: string): Promise<unknown> {
  const res = await fetch(url, {
    method,
    headers: {
      'Content-Type': 'application/json',
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) {
    throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  }
  return res.json();
}

async function workspace(base: string): Promise<string> {
  const ws = (await call(`${base}/__admin/workspaces`, 'POST', { profile: 'empty' })) as {
    keys: { write: { key: string } };
  };
  return ws.keys.write.key;
}

async function subscribe(
  base: string,
  key: string,
  receiver: Receiver,
  target: string,
  count: number,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const hook = (await call(
      `${base}/v1/webhooks`,
      'POST',
      { event: 'job.created', target_url: `${target}/hook/${i}` },
      key,
    )) as { id: string; secret: string };
    receiver.secrets.set(hook.id, hook.secret);
  }
}

const createJob = (base: string, key: string, n: number) =>
  call(`${base}/v1/jobs`, 'POST', { name: `Bench ${n}`, address: `${n} Main St` }, key);

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

function lagLine(arrivals: Arrival[]): string {
  const lags = arrivals.map((a) => a.lagMs).sort((a, b) => a - b);
  return `lag p50 ${pct(lags, 50)} ms  p99 ${pct(lags, 99)} ms  worst ${lags.at(-1) ?? 0} ms`;
}

async function fanOut(base: string, receiver: Receiver, target: string): Promise<number> {
  const key = await workspace(base);
  await subscribe(base, key, receiver, target, FAN_OUT);
  const rates: number[] = [];
  for (let n = 0; n < FAN_OUT_CHANGES; n++) {
    const before = receiver.arrivals.length;
    await createJob(base, key, n);
    const answered = Date.now();
    await receiver.until(before + FAN_OUT);
    const last = Math.max(...receiver.arrivals.slice(before).map((a) => a.at));
    rates.push((FAN_OUT * 1000) / Math.max(last - answered, 1));
  }
  rates.sort((a, b) => a - b);
  const median = pct(rates, 50);
  console.log(`fan-out: 1 change -> ${FAN_OUT} subscriptions, ${FAN_OUT_CHANGES} changes`);
  console.log(
    `  ${Math.round(median).toLocaleString('en-US')} deliveries/s (median; min ${Math.round(rates[0] ?? 0)}, max ${Math.round(rates.at(-1) ?? 0)})  ${lagLine(receiver.arrivals)}`,
  );
  return median;
}

async function stream(base: string, receiver: Receiver, target: string): Promise<number> {
  const key = await workspace(base);
  await subscribe(base, key, receiver, target, STREAM_SUBSCRIPTIONS);
  const jobs = STREAM_JOBS_PER_SECOND * STREAM_SECONDS;
  const expected = jobs * STREAM_SUBSCRIPTIONS;
  const started = Date.now();
  const posts: Promise<unknown>[] = [];
  for (let n = 0; n < jobs; n++) {
    const due = started + (n * 1000) / STREAM_JOBS_PER_SECOND;
    const wait = due - Date.now();
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    posts.push(createJob(base, key, n));
  }
  await Promise.all(posts);
  await receiver.until(expected);
  const first = Math.min(...receiver.arrivals.map((a) => a.at));
  const last = Math.max(...receiver.arrivals.map((a) => a.at));
  const perSecond = (expected * 1000) / Math.max(last - first, 1);
  console.log(
    `stream: ${STREAM_JOBS_PER_SECOND} jobs/s for ${STREAM_SECONDS} s -> ${STREAM_SUBSCRIPTIONS} subscriptions (${(STREAM_JOBS_PER_SECOND * STREAM_SUBSCRIPTIONS).toLocaleString('en-US')} deliveries/s offered)`,
  );
  console.log(
    `  ${Math.round(perSecond).toLocaleString('en-US')} deliveries/s received  ${lagLine(receiver.arrivals)}`,
  );
  return perSecond;
}

async function main(): Promise<void> {
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-deliveries-'));
  const svc = await start([
    BIN,
    'serve',
    '--port',
    '0',
    '--data',
    join(dir, 'data.json'),
    '--no-seed',
    '--allow-local-targets',
    '--rate-limit',
    'off',
  ]);
  try {
    const fan = new Receiver();
    const fanRate = await fanOut(svc.url, fan, await fan.listen());
    await fan.close();
    const steady = new Receiver();
    const streamRate = await stream(svc.url, steady, await steady.listen());
    await steady.close();
    const bad = fan.badSignatures + steady.badSignatures;
    console.log(`signatures: ${bad === 0 ? 'all verified' : `${bad} FAILED`}`);
    const worst = Math.min(fanRate, streamRate);
    console.log(
      `target >= ${TARGET_PER_SECOND} deliveries/s: ${worst >= TARGET_PER_SECOND && bad === 0 ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    await svc.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
