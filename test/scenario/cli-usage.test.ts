import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, cleanup, runSvc, tempDir } from '../support/spawn';

// `svc scenario run` as a real process: --junit checked before anything runs, Ctrl-C, a run
// that matched nothing, a server that is down.

const ONE = 'test/scenario/fixtures/fail/01-passes.yaml';
let dir: string;

beforeAll(async () => {
  dir = await tempDir();
});
afterAll(cleanup);

describe('--junit is checked before anything runs', () => {
  test('a --junit file that cannot be written exits 2 with one line, running nothing', async () => {
    const blocker = join(dir, 'a-file');
    await writeFile(blocker, 'x');
    const run = await runSvc(['scenario', 'run', ONE, '--junit', join(blocker, 'report.xml')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: cannot write --junit .*a-file\/report\.xml: .*\n$/);
  });

  test('--junit /proc/nope/x.xml does not hang: exit 2 at once', async () => {
    const run = await runSvc(['scenario', 'run', ONE, '--junit', '/proc/nope/x.xml'], {
      timeoutMs: 10_000,
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: cannot write --junit \/proc\/nope\/x\.xml: /);
  });

  test('--junit into folders not there yet makes them, one level at a time', async () => {
    const file = join(dir, 'deep', 'er', 'report.xml');
    const run = await runSvc(['scenario', 'run', ONE, '--junit', file], { timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    expect(await readFile(file, 'utf8')).toContain('<testsuites name="svc scenario run"');
  });
});

describe('a run that runs nothing exits 2', () => {
  test('no scenario matched: --filter that matches nothing', async () => {
    const run = await runSvc(['scenario', 'run', ONE, '--filter', 'zzz-nothing']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: no scenario matched --filter "zzz-nothing"/);
  });

  test('no scenario matched: an empty folder', async () => {
    const empty = join(dir, 'empty');
    await mkdir(empty);
    const run = await runSvc(['scenario', 'run', empty]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: no scenario matched: no \.yaml/);
  });
});

/** A port nothing listens on: one the OS gave a server that is closed again. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

test('a --base-url server that is down exits 2: cannot reach URL: connection refused', async () => {
  const url = `http://127.0.0.1:${await freePort()}`;
  const run = await runSvc(['scenario', 'run', ONE, '--base-url', url]);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(`error: cannot reach ${url}: connection refused\n`);
});

test('Ctrl-C during an in-process run removes the temporary store, then exits 130', async () => {
  const tmp = join(dir, 'tmp');
  await mkdir(tmp);
  const file = join(dir, 'waits.yaml');
  await writeFile(
    file,
    'name: waits\nsteps:\n  - webhook: {event: contact.created}\n  - delivery: {event: contact.created, within_ms: 30000}\n',
  );
  const child = spawn(process.execPath, [BIN, 'scenario', 'run', file], {
    env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const deadline = Date.now() + 10_000;
    let made: string[] = [];
    while (Date.now() < deadline) {
      made = (await readdir(tmp)).filter((n) => n.startsWith('svc-scenario-'));
      if (made.length > 0) {
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(made).toHaveLength(1);
    // the store is made, the scenario's workspace too, and its delivery step waits
    await new Promise((r) => setTimeout(r, 1500));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect((await readdir(tmp)).filter((n) => n.startsWith('svc-scenario-'))).toEqual([]);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
    }
  }
});
