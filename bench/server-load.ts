// What the benchmarks that load a spawned server share: the cores they pin it to, the load at 10
// connections with the CPU the server spent a request, and the waits for its start to settle.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BIN, ROOT, type Started } from './server-process';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
export const CONNECTIONS = 10;

/** Core 1 for the servers, core 0 for the load, when the machine has two and taskset is here. */
export function cores(): { server: string; load: string } | undefined {
  if (availableParallelism() < 2 || spawnSync('taskset', ['-V']).status !== 0) {
    return undefined;
  }
  spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  return { server: '1', load: '0' };
}

export interface Run {
  perSecond: number;
  p99: number;
  /** CPU the server spent a request (user and system), in microseconds. */
  cpuUs: number;
  failed: number;
}

const TICKS = 100; // clock ticks a second in /proc/<pid>/stat (USER_HZ)
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

export async function load(
  server: Started,
  opts: Partial<autocannon.Options>,
  seconds = SECONDS,
): Promise<Run> {
  const before = await cpuMs(server.pid).catch(() => Number.NaN);
  const r = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: seconds,
    ...opts,
  });
  const used = (await cpuMs(server.pid).catch(() => Number.NaN)) - before;
  return {
    perSecond: r.requests.average,
    p99: r.latency.p99,
    cpuUs: (used * 1000) / Math.max(1, r.requests.total),
    failed: r.errors + r.non2xx,
  };
}

export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Until the server has gone 200 ms using under a tenth of its core: what a start leaves to do
 * after its first answer (the rest of the file parsed, work fallen due) is done, and what is
 * measured next is the server at rest. At most 10 s.
 */
export async function settled(pid: number): Promise<void> {
  const until = performance.now() + 10_000;
  while (performance.now() < until) {
    const before = await cpuMs(pid);
    await new Promise((r) => setTimeout(r, 200));
    if ((await cpuMs(pid)) - before < 20) {
      return;
    }
  }
}

/** Waits for the first 200 of `path`; how long from `since`. */
export async function firstAnswer(url: string, key: string, since: number): Promise<number> {
  for (;;) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } }).catch(
      () => undefined,
    );
    if (res?.status === 200) {
      await res.arrayBuffer();
      return performance.now() - since;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** The large profile's file, seeded once per build of svc (cached in the OS's temp folder). */
export async function seeded(): Promise<{ file: string; workspaceId: string; key: string }> {
  const built = await stat(join(ROOT, 'dist', 'svc.cjs'));
  const dir = join(tmpdir(), 'svc-bench-guard', `${built.size}-${Math.round(built.mtimeMs)}`);
  const file = join(dir, 'large.json');
  const meta = join(dir, 'seed.json');
  try {
    return { file, ...JSON.parse(await readFile(meta, 'utf8')) };
  } catch {
    await rm(join(tmpdir(), 'svc-bench-guard'), { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
  }
  const out = spawnSync(
    process.execPath,
    [BIN, 'seed', '--data', file, '--profile', 'large', '--seed', '1', '--json'],
    { encoding: 'utf8' },
  );
  const ws = (
    JSON.parse(out.stdout) as { workspaces: { id: string; keys: { write: { key: string } } }[] }
  ).workspaces[0];
  if (!ws) {
    throw new Error(`svc seed failed: ${out.stderr}`);
  }
  const found = { workspaceId: ws.id, key: ws.keys.write.key };
  await writeFile(meta, JSON.stringify(found));
  return { file, ...found };
}
