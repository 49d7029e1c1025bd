// The request log on disk, measured (issue 21). `svc serve` on a `--profile large` data file
// (10,000 jobs) answers BENCH_CALLS (default 20,000) `GET /v1/jobs?limit=200`, the page that makes
// the biggest lines; then it is stopped (every line written) and the two log files are measured:
// bytes on disk, lines, bytes a line, against the data file. Extra arguments go to `svc serve`
// (`-- --request-log-max-bytes off` measures the lines cap alone). The target printed: both files
// together within the byte budget (64 MiB unless given).
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BIN, ensureBuilt, start } from './server-process';

const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const MiB = 2 ** 20;

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );
const linesOf = (path: string) =>
  readFile(path).then(
    (bytes) => bytes.reduce((n, byte) => n + (byte === 10 ? 1 : 0), 0),
    () => 0,
  );

async function main(): Promise<void> {
  ensureBuilt();
  const extra = process.argv.slice(2).filter((a) => a !== '--');
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-reqlog-'));
  try {
    const data = join(dir, 'data.json');
    const seeded = spawnSync(
      process.execPath,
      [BIN, 'seed', '--data', data, '--profile', 'large', '--seed', '1'],
      { encoding: 'utf8' },
    );
    const key = /write key\s+(\S+)/.exec(seeded.stdout)?.[1];
    if (key === undefined) {
      throw new Error(`svc seed printed no write key: ${seeded.stdout}${seeded.stderr}`);
    }
    const server = await start([
      BIN,
      'serve',
      '--port',
      '0',
      '--data',
      data,
      '--rate-limit',
      'off',
      ...extra,
    ]);
    const started = performance.now();
    const run = await autocannon({
      url: `${server.url}/v1/jobs?limit=200`,
      headers: { Authorization: `Bearer ${key}` },
      connections: 8,
      amount: CALLS,
    });
    const seconds = (performance.now() - started) / 1000;
    const kept = await fetch(`${server.url}/__admin/requests?format=jsonl`).then((r) => r.text());
    const listed = kept.split('\n').filter((l) => l !== '').length;
    await server.stop();
    const files = [`${data}.requests.jsonl`, `${data}.requests.jsonl.1`];
    const sizes = await Promise.all(files.map(sizeOf));
    const lines = await Promise.all(files.map(linesOf));
    const total = sizes.reduce((a, b) => a + b, 0);
    const count = lines.reduce((a, b) => a + b, 0);
    const budgetArg = extra[extra.indexOf('--request-log-max-bytes') + 1];
    const budget = extra.includes('--request-log-max-bytes') ? budgetArg : '64MB (default)';
    console.log(
      `svc serve ${extra.join(' ') || '(defaults)'}; data file ${(
        (await sizeOf(data)) / MiB
      ).toFixed(1)} MB`,
    );
    console.log(
      `${run.requests.sent} calls of GET /v1/jobs?limit=200 in ${seconds.toFixed(1)} s ` +
        `(${run.non2xx} not 2xx)`,
    );
    console.log(
      `log on disk: ${(total / MiB).toFixed(1)} MB in ${count} lines ` +
        `(${(sizes[0] ?? 0) / MiB < 0.05 ? '0' : ((sizes[0] ?? 0) / MiB).toFixed(1)} MB + ` +
        `${((sizes[1] ?? 0) / MiB).toFixed(1)} MB), ${count === 0 ? 0 : Math.round(total / count)} bytes a line`,
    );
    console.log(`entries listed by GET /__admin/requests?format=jsonl: ${listed}`);
    if (budget !== 'off') {
      const limit = budget === '64MB (default)' ? 64 * MiB : parseBudget(String(budget));
      console.log(
        `${total <= limit ? 'PASS' : 'FAIL'} the two files hold ${(total / MiB).toFixed(1)} MB, ` +
          `within the budget of ${(limit / MiB).toFixed(1)} MB`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The flag's value as svc reads it (binary units); NaN for anything else. */
function parseBudget(text: string): number {
  const m = /^(\d+)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?$/i.exec(text);
  const unit = (m?.[2] ?? 'b').toLowerCase()[0] as 'b' | 'k' | 'm' | 'g';
  return m ? Number(m[1]) * { b: 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 }[unit] : Number.NaN;
}

await main();
