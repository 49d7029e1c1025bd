// svc replay deliveries with real processes: deliveries a real svc signed, recorded by
// `svc webhook listen --record`, reach a second listener, verified there with the --secret they
// were signed afresh with (spec, Signature verification). Only processes started here are
// signalled (test/support/spawn.ts).
import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import {
  BIN,
  cleanup,
  collect,
  http,
  runSvc,
  spawnNode,
  startServe,
  tempDir,
} from '../support/spawn';

afterEach(cleanup);

const READY = /^svc webhook listen on (http:\/\/127\.0\.0\.1:\d+)$/m;
const SECRET = 'whsec_replayed_deliveries';

interface Listening {
  url: string;
  child: ChildProcess;
  stdout(): string;
}

async function listen(args: string[]): Promise<Listening> {
  const child = spawnNode([BIN, 'webhook', 'listen', '--port', '0', ...args]);
  const { stdout } = collect(child);
  const ready = await printed(stdout, READY);
  return { url: ready[1] as string, child, stdout };
}

/** Waits, at most 10 s, for `pattern` in `out()`. */
async function printed(out: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = pattern.exec(out());
    if (found) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error(`${pattern} not printed within 10 s:\n${out()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Deliveries of a real svc, recorded by a listener subscribed to it. */
async function recordDeliveries(): Promise<{ file: string; eventIds: string[] }> {
  const dir = await tempDir();
  const file = join(dir, 'deliveries.jsonl');
  const server = await startServe(join(dir, 'data.json'), ['--no-seed', '--allow-local-targets']);
  const made = await http(`${server.url}/__admin/workspaces`, {
    method: 'POST',
    body: { profile: 'empty' },
  });
  const key: string = made.body.keys.write.key;
  const recorder = await listen([
    '--server',
    server.url,
    '--key',
    key,
    '--events',
    'job.created',
    '--record',
    file,
  ]);
  for (const name of ['One', 'Two']) {
    const job = await http(`${server.url}/v1/jobs`, {
      method: 'POST',
      key,
      body: { name, address: '1 Elm St' },
    });
    expect(job.status).toBe(201);
  }
  await printed(recorder.stdout, /(verified, answered 200[\s\S]*){2}/);
  const lines = (await readFile(file, 'utf8')).trim().split('\n');
  expect(lines).toHaveLength(2);
  const eventIds = lines.map((l) => JSON.parse(l).headers['x-service-delivery'] as string);
  return { file, eventIds };
}

test('recorded deliveries reach svc webhook listen, verified with the secret given, exit 0', async () => {
  const { file, eventIds } = await recordDeliveries();
  const receiver = await listen(['--secret', SECRET]);
  const run = await runSvc([
    'replay',
    'deliveries',
    '--from',
    file,
    '--to',
    receiver.url,
    '--secret',
    SECRET,
  ]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout.trim().split('\n')).toEqual([
    `job.created  ${eventIds[0]}  200`,
    `job.created  ${eventIds[1]}  200`,
    '2 delivered, 0 failed',
  ]);
  await printed(receiver.stdout, /(job\.created \S+ attempt 1 verified, answered 200[\s\S]*){2}/);
});

test('the same body bytes and X-Service-* headers go out; only the signature is new', async () => {
  const { file } = await recordDeliveries();
  const dir = await tempDir();
  const second = join(dir, 'again.jsonl');
  const receiver = await listen(['--secret', SECRET, '--record', second]);
  expect(
    (
      await runSvc([
        'replay',
        'deliveries',
        '--from',
        file,
        '--to',
        receiver.url,
        '--secret',
        SECRET,
      ])
    ).code,
  ).toBe(0);
  await printed(receiver.stdout, /(verified[\s\S]*){2}/);
  const read = async (f: string) =>
    (await readFile(f, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { body: string; headers: Record<string, string> });
  const [before, after] = [await read(file), await read(second)];
  expect(after.map((d) => d.body)).toEqual(before.map((d) => d.body));
  const without = (h: Record<string, string>) => ({ ...h, 'x-service-signature': '' });
  expect(after.map((d) => without(d.headers))).toEqual(before.map((d) => without(d.headers)));
  expect(after[0]?.headers['x-service-signature']).not.toBe(
    before[0]?.headers['x-service-signature'],
  );
});

test('signed with another secret than the receiver holds: refused there, exit 1', async () => {
  const { file } = await recordDeliveries();
  const receiver = await listen(['--secret', SECRET]);
  const run = await runSvc([
    'replay',
    'deliveries',
    '--from',
    file,
    '--to',
    receiver.url,
    '--secret',
    'whsec_other',
  ]);
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^job\.created {2}\S+ {2}4\d\d$/m);
  await printed(receiver.stdout, /bad signature/);
});

test('a receiver that cannot be reached: no answer, exit 1', async () => {
  const { file } = await recordDeliveries();
  const receiver = await listen([]);
  receiver.child.kill('SIGKILL');
  await new Promise((resolve) => receiver.child.once('exit', resolve));
  const run = await runSvc([
    'replay',
    'deliveries',
    '--from',
    file,
    '--to',
    receiver.url,
    '--secret',
    SECRET,
  ]);
  expect(run.code).toBe(1);
  expect(run.stdout).toContain('no answer: connection refused');
});

test('a file that holds a line of something else is bad usage, exit 2, nothing sent', async () => {
  const dir = await tempDir();
  const file = join(dir, 'bad.jsonl');
  await writeFile(file, '{"headers":{},"body":"{}"}\n{"nope":1}\n');
  const receiver = await listen([]);
  const run = await runSvc([
    'replay',
    'deliveries',
    '--from',
    file,
    '--to',
    receiver.url,
    '--secret',
    SECRET,
  ]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('line 2: not a line of svc webhook listen --record');
  expect(receiver.stdout()).not.toMatch(/answered/);
});
