// Bad usage of svc replay is exit 2 with one line on stderr (DESIGN, Operations), and the command
// is found with its options and its subcommand (src/cli/main.ts, unknownCommand).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, runSvc, tempDir } from '../support/spawn';

afterEach(cleanup);

const TO = ['--to', 'http://127.0.0.1:9'];

describe('svc replay usage errors exit 2 with one line on stderr', () => {
  test.each([
    ['no --from', ['replay', ...TO, '--key', 'k']],
    ['no --to', ['replay', '--from', 'log.jsonl', '--key', 'k']],
    ['no key at all', ['replay', '--from', 'log.jsonl', ...TO]],
    ['a --to that is no URL', ['replay', '--from', 'log.jsonl', '--to', 'nowhere', '--key', 'k']],
    ['a --key-map without =', ['replay', '--from', 'log.jsonl', ...TO, '--key-map', 'key_1']],
    [
      'a --key-map with an empty side',
      ['replay', '--from', 'log.jsonl', ...TO, '--key-map', 'key_1='],
    ],
    [
      'a key_id mapped twice to two keys',
      ['replay', '--from', 'log.jsonl', ...TO, '--key-map', 'a=k1', '--key-map', 'a=k2'],
    ],
    [
      'a bad --since',
      ['replay', '--from', 'log.jsonl', ...TO, '--key', 'k', '--since', 'yesterday'],
    ],
    [
      'an impossible --until',
      ['replay', '--from', 'log.jsonl', ...TO, '--key', 'k', '--until', '2026-02-30'],
    ],
    [
      '--since not before --until',
      [
        'replay',
        '--from',
        'log.jsonl',
        ...TO,
        '--key',
        'k',
        '--since',
        '2026-03-02',
        '--until',
        '2026-03-01',
      ],
    ],
    ['a source file that is not there', ['replay', '--from', 'missing.jsonl', ...TO, '--key', 'k']],
    ['an unknown option', ['replay', '--from', 'log.jsonl', ...TO, '--key', 'k', '--bogus']],
    ['deliveries without --secret', ['replay', 'deliveries', '--from', 'd.jsonl', ...TO]],
    [
      'deliveries with a secret not whsec_',
      ['replay', 'deliveries', '--from', 'd.jsonl', ...TO, '--secret', 'abc'],
    ],
    [
      'deliveries with a file not there',
      ['replay', 'deliveries', '--from', 'd.jsonl', ...TO, '--secret', 'whsec_a'],
    ],
    [
      'deliveries with an option of replay',
      ['replay', 'deliveries', '--from', 'd.jsonl', ...TO, '--secret', 'whsec_a', '--compare'],
    ],
    ['an unknown subcommand', ['replay', 'nope']],
  ])('%s', async (_what, args) => {
    const cwd = await tempDir();
    const run = await runSvc(args, { cwd });
    expect(run.stderr).toMatch(/^[^\n]+\n$/);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(await readdir(cwd)).toEqual([]);
  });

  test('a source file holding a line that is no request-log entry names the line', async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, 'log.jsonl'), '\n{"method":"GET"}\n');
    const run = await runSvc(['replay', '--from', 'log.jsonl', ...TO, '--key', 'k'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^svc: log\.jsonl line 2: not a request-log entry \(at: .+\)\n$/);
  });

  test('a source svc that cannot be reached is exit 1, as a target would be', async () => {
    const run = await runSvc(['replay', '--from', 'http://127.0.0.1:9', ...TO, '--key', 'k']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /cannot read the request log at http:\/\/127\.0\.0\.1:9\/__admin\/requests\?format=jsonl: connection refused/,
    );
  });

  test('an empty selection replays nothing and says so, exit 0', async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, 'log.jsonl'), '');
    const run = await runSvc(['replay', '--from', 'log.jsonl', ...TO, '--key', 'k', '--compare'], {
      cwd,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('nothing to replay: no logged request matches\n');
  });
});

describe('svc replay is a command with options and a subcommand', () => {
  test.each([[['replay', '--help']], [['help', 'replay']]])(
    'svc %j prints replay help, every flag and the deliveries subcommand, exit 0',
    async (args) => {
      const run = await runSvc(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: svc replay/);
      for (const flag of [
        '--from',
        '--to',
        '--key',
        '--key-map',
        '--workspace',
        '--path',
        '--since',
        '--until',
        '--compare',
        '--json',
        '--junit',
      ]) {
        expect(run.stdout).toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
      }
      expect(run.stdout).toMatch(/^\s+deliveries\b/m);
    },
  );

  test('svc replay deliveries --help lists --from, --to, --secret, exit 0', async () => {
    const run = await runSvc(['replay', 'deliveries', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: svc replay deliveries/);
    for (const flag of ['--from', '--to', '--secret']) {
      expect(run.stdout).toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
    }
  });

  test('a value of an option is no command: svc replay --from x --to y runs replay', async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, 'x'), '');
    const run = await runSvc(
      ['replay', '--from', 'x', '--to', 'http://127.0.0.1:9', '--key', 'deliveries'],
      { cwd },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  test('a genuinely unknown command is still exit 2 naming it', async () => {
    const run = await runSvc(['nope', '--from', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'nope'");
  });
});

describe('svc replay --junit is prepared as svc scenario run prepares it (one shared helper)', () => {
  test('--junit into folders that do not exist yet makes them; the report is written there', async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, 'log.jsonl'), '');
    const file = join(cwd, 'deep', 'er', 'replay.xml');
    const run = await runSvc(
      ['replay', '--from', 'log.jsonl', ...TO, '--key', 'k', '--junit', file],
      { cwd },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(await readFile(file, 'utf8')).toContain('<testsuites');
  });

  test('a --junit that cannot be written: the same one line as svc scenario run, exit 2', async () => {
    const cwd = await tempDir();
    await writeFile(join(cwd, 'a-file'), 'x');
    const file = join(cwd, 'a-file', 'r.xml');
    const run = await runSvc(
      ['replay', '--from', 'log.jsonl', ...TO, '--key', 'k', '--junit', file],
      { cwd },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: cannot write --junit .*a-file\/r\.xml: .*\n$/);
  });
});
