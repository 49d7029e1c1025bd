// A 25 MB upload over HTTP to `svc serve` in its own process: its throughput, and how far the
// server's resident memory grows while it takes the upload. The bytes must stream to disk, never
// be held whole: goal, RSS grows by less than 32 MB. Three forms are timed: a multipart body with a
// Content-Length (as curl -F sends it), the same chunked, and the same with an Idempotency-Key
// (fingerprinted as it streams). Prints PASS or FAIL and exits 0 either way.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ensureBuilt } from './server-process';

const MB = 1024 * 1024;
const SIZE = 25 * MB; // exactly the cap
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const GOAL_MB = 32;
const BOUNDARY = 'svc-bench-upload';

interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

function serve(data: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--data', data, '--no-seed', '--rate-limit', 'off'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const ready = /svc listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (ready?.[1] && child.pid !== undefined) {
        const pid = child.pid;
        resolve({
          url: ready[1],
          pid,
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              process.kill(pid, 'SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`svc serve exited ${String(code)}: ${out}`)));
  });
}

/** The server's resident set (bytes), from /proc. */
function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

type Form = 'length' | 'chunked' | 'keyed';

/** One 25 MB upload, generated as it is sent; answers its time and the server's peak RSS. */
function upload(
  server: Server,
  key: string,
  form: Form,
  round: number,
): Promise<{ ms: number; peak: number }> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, round + 1);
  const headers: Record<string, string | number> = {
    Authorization: `Bearer ${key}`,
    'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
  };
  if (form === 'chunked') {
    headers['Transfer-Encoding'] = 'chunked';
  } else {
    headers['Content-Length'] = head.length + SIZE + tail.length;
  }
  if (form === 'keyed') {
    headers['Idempotency-Key'] = `bench-${round}-${Date.now()}`;
  }
  let peak = rss(server.pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss(server.pid));
  }, 2);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/v1/files`, { method: 'POST', headers });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        clearInterval(sampler);
        peak = Math.max(peak, rss(server.pid));
        if (res.statusCode !== 201) {
          reject(new Error(`upload answered ${res.statusCode}`));
        } else {
          resolve({ ms: performance.now() - started, peak });
        }
      });
    });
    req.on('error', reject);
    (async () => {
      req.write(head);
      for (let left = SIZE; left > 0; left -= chunk.length) {
        if (!req.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) {
          await new Promise((r) => req.once('drain', r));
        }
      }
      req.end(tail);
    })().catch(reject);
  });
}

async function main(): Promise<void> {
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-upload-'));
  const server = await serve(join(dir, 'data.json'));
  try {
    const made = await fetch(`${server.url}/__admin/workspaces`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const key = ((await made.json()) as { keys: { write: { key: string } } }).keys.write.key;
    // Untimed, but its growth counts: the first upload also loads busboy, file-type and exifr.
    const cold = rss(server.pid);
    const first = await upload(server, key, 'length', 0);
    const coldGrowth = (first.peak - cold) / MB;
    await upload(server, key, 'keyed', 0);
    const forms: Form[] = ['length', 'chunked', 'keyed'];
    const results = new Map<Form, { mbps: number[]; growth: number[] }>(
      forms.map((f) => [f, { mbps: [], growth: [] }]),
    );
    for (let round = 1; round <= ROUNDS; round++) {
      for (const form of forms) {
        await new Promise((r) => setTimeout(r, 100)); // let the last upload's buffers go
        const before = rss(server.pid);
        const { ms, peak } = await upload(server, key, form, round);
        const got = results.get(form);
        got?.mbps.push(SIZE / MB / (ms / 1000));
        got?.growth.push((peak - before) / MB);
      }
    }
    console.log(
      `25 MB uploads to svc serve (pid ${server.pid}), ${ROUNDS} rounds each, RSS sampled every 2 ms`,
    );
    console.log(
      `  first upload (cold): RSS ${(cold / MB).toFixed(1)} MB before, peak ` +
        `${(first.peak / MB).toFixed(1)} MB, growth ${coldGrowth.toFixed(1)} MB`,
    );
    let worst = coldGrowth;
    for (const form of forms) {
      const got = results.get(form) ?? { mbps: [], growth: [] };
      const growth = Math.max(...got.growth);
      worst = Math.max(worst, growth);
      console.log(
        `  ${form.padEnd(8)} throughput median ${median(got.mbps).toFixed(0)} MB/s ` +
          `(min ${Math.min(...got.mbps).toFixed(0)}), RSS growth median ${median(got.growth).toFixed(1)} MB, ` +
          `max ${growth.toFixed(1)} MB`,
      );
    }
    console.log(
      `${worst < GOAL_MB ? 'PASS' : 'FAIL'}: peak RSS growth ${worst.toFixed(1)} MB (goal < ${GOAL_MB} MB)`,
    );
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

await main();
