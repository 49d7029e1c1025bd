// svc coverage on a full request log (issue 19), measured: a svc whose log holds 20,000 entries
// (reads of a page of 50 jobs, each kept as its 16 KB: about 330 MB of export) and a few hundred
// calls of another workspace. Prints how long `svc coverage --json` (a process of its own) took and
// its peak memory, for one workspace and for the whole log. Target: the log is read a line at a
// time, never held whole: the whole log costs under 128 MB more than one workspace's 500 calls.
// Prints PASS or FAIL and exits 0 either way.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BIN, ensureBuilt, start } from './server-process';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 20_000);
const SESSION = Number(process.env.BENCH_SESSION ?? 500);

async function json(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  return (await res.json()) as Record<string, never>;
}

const post = (body: unknown, key?: string): RequestInit => ({
  method: 'POST',
  headers: {
    'Content-Type': 'application/json',
    ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
  },
  body: JSON.stringify(body),
});

/** `svc coverage --json` as a process of its own: its time and its peak memory (VmHWM, sampled). */
async function measure(label: string, base: string, workspace?: string): Promise<number> {
  const args = [BIN, 'coverage', '--from', base, '--json'];
  const child = spawn(process.execPath, workspace ? [...args, '--workspace', workspace] : args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
  });
  const started = performance.now();
  let peak = 0;
  const timer = setInterval(() => {
    readFile(`/proc/${child.pid}/status`, 'utf8').then(
      (status) => {
        peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
      },
      () => {},
    );
  }, 5);
  await new Promise((done) => child.once('close', done));
  clearInterval(timer);
  const ms = performance.now() - started;
  const report = JSON.parse(out) as { requests: number; operations: unknown[] };
  console.log(
    `${label}: ${report.requests} entries, ${report.operations.length} operations called, ` +
      `${ms.toFixed(0)} ms; peak memory ${peak.toFixed(0)} MB`,
  );
  return peak;
}

async function main(): Promise<void> {
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-coverage-'));
  const data = join(dir, 'a.json');
  spawnSync(process.execPath, [BIN, 'seed', '--data', data, '--profile', 'demo'], {
    stdio: 'ignore',
  });
  const svc = await start([BIN, 'serve', '--port', '0', '--data', data, '--rate-limit', 'off']);
  try {
    const [demo] = (await json(`${svc.url}/__admin/workspaces`)).data as unknown as {
      id: string;
    }[];
    const key = (
      await json(`${svc.url}/__admin/workspaces/${demo?.id}/keys`, post({ access: 'write' }))
    ).key as unknown as string;
    await autocannon({
      url: `${svc.url}/v1/jobs?limit=50`,
      headers: { Authorization: `Bearer ${key}` },
      connections: 8,
      amount: ENTRIES,
    });
    const ws = (await json(
      `${svc.url}/__admin/workspaces`,
      post({ profile: 'empty' }),
    )) as unknown as {
      id: string;
      keys: { write: { key: string } };
    };
    for (let i = 0; i < SESSION; i++) {
      await fetch(
        `${svc.url}/v1/contacts`,
        post(i % 10 === 0 ? {} : { first_name: `C${i}` }, ws.keys.write.key),
      );
    }
    const head = await fetch(`${svc.url}/__admin/requests?format=jsonl`);
    let bytes = 0;
    for await (const chunk of head.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
    }
    console.log(`request log export: ${(bytes / 2 ** 20).toFixed(0)} MB`);
    const oneWs = await measure(`one workspace (${SESSION} calls)`, svc.url, ws.id);
    const whole = await measure('whole log', svc.url);
    console.log(
      `${whole - oneWs < 128 ? 'PASS' : 'FAIL'} reading the whole ${(bytes / 2 ** 20).toFixed(0)} MB log ` +
        `takes under 128 MB more than one workspace's (${(whole - oneWs).toFixed(0)} MB more)`,
    );
  } finally {
    await svc.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
