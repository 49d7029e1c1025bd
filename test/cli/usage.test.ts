import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, cleanup, runSvc, tempDir } from '../support/spawn';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

afterEach(cleanup);

describe('help and version', () => {
  test('svc --help exits 0 and lists serve and seed', async () => {
    const run = await runSvc(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\s+serve\b/m);
    expect(run.stdout).toMatch(/^\s+seed\b/m);
    expect(run.stderr).toBe('');
  });

  // A reader that stops early (head -1) closes the pipe: svc ends quietly, not with a stack trace.
  test.each([['--help'], ['serve', '--help'], ['help', 'serve']])(
    'svc %s piped into head -1 exits 0 and writes nothing to stderr',
    (...args) => {
      const run = spawnSync(
        'bash',
        ['-c', `set -o pipefail; node "${BIN}" ${args.join(' ')} | head -n 1 >/dev/null`],
        { encoding: 'utf8' },
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    },
  );

  test('svc --version prints the version of package.json', async () => {
    const run = await runSvc(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(pkg.version);
  });

  test('svc serve --help lists every flag of the fixed contract', async () => {
    const run = await runSvc(['serve', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--data',
      '--no-seed',
      '--allow-local-targets',
      '--rate-limit',
      '--cors',
    ]) {
      expect(run.stdout).toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
    }
  });

  test('svc seed --help lists every flag of the fixed contract and the four profiles', async () => {
    const run = await runSvc(['seed', '--help']);
    expect(run.code).toBe(0);
    for (const flag of ['--data', '--seed', '--profile', '--json']) {
      expect(run.stdout).toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
    }
    for (const profile of ['empty', 'small', 'demo', 'large']) {
      expect(run.stdout).toContain(profile);
    }
  });
});

describe('usage errors', () => {
  test.each([
    ['an unknown flag', ['--bogus']],
    ['an unknown serve flag', ['serve', '--bogus']],
    ['serve --port abc', ['serve', '--port', 'abc']],
    ['serve --port 70000', ['serve', '--port', '70000']],
    ['serve --rate-limit 0', ['serve', '--rate-limit', '0']],
    ['serve --cors with a path', ['serve', '--cors', 'http://localhost:3000/app']],
    ['serve --cors with no scheme', ['serve', '--cors', 'localhost:3000']],
    ['seed --profile bogus', ['seed', '--profile', 'bogus']],
    ['seed --seed x', ['seed', '--seed', 'x']],
    ['an unknown command', ['frobnicate']],
    ['replay without --from and --to', ['replay']],
    ['trigger without an event', ['trigger']],
  ])('%s exits 2 with exactly one line on stderr', async (_what, args) => {
    // run in an empty directory: a usage error must not touch any data file
    const cwd = await tempDir();
    const run = await runSvc(args, { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^[^\n]+\n$/);
    expect(run.stdout).toBe('');
    expect(await readdir(cwd)).toEqual([]);
  });
});

describe('unknown commands', () => {
  test.each([
    [['nope'], 'nope', 'svc --help'],
    [['nope', '-h'], 'nope', 'svc --help'],
    [['nope', 'run', '--help'], 'nope', 'svc --help'],
    [['help', 'nope'], 'nope', 'svc --help'],
    [['replay', 'nope'], 'replay nope', 'svc replay --help'],
    [['scenario', 'nope'], 'scenario nope', 'svc scenario --help'],
    [['webhook', 'nope'], 'webhook nope', 'svc webhook --help'],
    [['webhook', 'nope', '--help'], 'webhook nope', 'svc webhook --help'],
  ])(
    'svc %j is one line naming the command and pointing at --help, exit 2',
    async (args, name, hint) => {
      const cwd = await tempDir();
      const run = await runSvc(args, { cwd });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^[^\n]+\n$/);
      expect(run.stderr).toContain(`unknown command '${name}'`);
      expect(run.stderr).toContain(hint);
      expect(await readdir(cwd)).toEqual([]);
    },
  );

  test.each([
    [['--help']],
    [['help']],
    [['help', 'serve']],
    [['serve', '--help']],
    [['webhook', '--help']],
    [['webhook', 'listen', '--help']],
    [['help', 'webhook']],
    [['replay', '--help']],
    [['replay', 'deliveries', '--help']],
    [['help', 'replay']],
    [['scenario', '--help']],
    [['scenario', 'run', '--help']],
    [['trigger', '--help']],
  ])('svc %j still prints help and exits 0', async (args) => {
    const run = await runSvc(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: svc/);
    expect(run.stderr).toBe('');
  });
});
