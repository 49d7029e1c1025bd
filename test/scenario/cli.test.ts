import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanup, http, runSvc, type Server, startServe, tempDir } from '../support/spawn';

// `svc scenario run` as a real process: in-process svc, then a second, spawned svc by --base-url.

const PASS = 'test/scenario/fixtures/pass';
const FAIL = 'test/scenario/fixtures/fail';
let server: Server;
let keys: { write: string; read: string };

beforeAll(async () => {
  const dir = await tempDir();
  server = await startServe(join(dir, 'data.json'), ['--allow-local-targets', '--no-seed']);
  const made = await http(`${server.url}/__admin/workspaces`, { method: 'POST', body: {} });
  keys = { write: made.body.keys.write.key, read: made.body.keys.read.key };
});
afterAll(cleanup);

describe('svc scenario run', () => {
  test('a folder passes in-process: a line per scenario, the counts, exit 0', async () => {
    const run = await runSvc(['scenario', 'run', PASS], { timeoutMs: 30_000 });
    expect(run.stdout.split('\n')).toEqual([
      'PASS a contact is created, read back, updated with a delivery, deleted and restored',
      'PASS a filtered subscription and a multipart upload',
      'PASS lists, repeats, queries and a form',
      '3 passed, 0 failed, 0 skipped',
      '',
    ]);
    expect(run.code).toBe(0);
  });

  test('the same folder passes with --base-url against a second svc, with --key', async () => {
    const run = await runSvc(
      [
        'scenario',
        'run',
        PASS,
        '--base-url',
        server.url,
        '--key',
        keys.write,
        '--read-key',
        keys.read,
      ],
      { timeoutMs: 30_000 },
    );
    expect(run.stdout).toContain('3 passed, 0 failed, 0 skipped');
    expect(run.code).toBe(0);
  });

  test('the same folder passes with --base-url and no --key: svc makes a workspace a scenario', async () => {
    const run = await runSvc(['scenario', 'run', PASS, '--base-url', `${server.url}/v1`], {
      timeoutMs: 30_000,
    });
    expect(run.stdout).toContain('3 passed, 0 failed, 0 skipped');
    expect(run.code).toBe(0);
  });

  test('a wrong expectation fails readably and exits 1', async () => {
    const run = await runSvc(['scenario', 'run', FAIL]);
    expect(run.stdout.split('\n')).toEqual([
      'PASS alpha passes',
      'FAIL beta has a wrong expectation',
      '  step 2 (read it back: GET /contacts/{{contact_id}}): body.first_name: expected "Grace", got "Ada"',
      `  in ${FAIL}/02-wrong.yaml`,
      'PASS gamma passes',
      '2 passed, 1 failed, 0 skipped',
      '',
    ]);
    expect(run.code).toBe(1);
  });

  test('--bail stops after the first failure, --filter picks by name', async () => {
    const bail = await runSvc(['scenario', 'run', FAIL, '--bail']);
    expect(bail.stdout).not.toContain('gamma');
    expect(bail.stdout).toContain('1 passed, 1 failed, 0 skipped');
    expect(bail.code).toBe(1);
    const filter = await runSvc(['scenario', 'run', FAIL, '--filter', 'Alpha']);
    expect(filter.stdout).toBe('PASS alpha passes\n1 passed, 0 failed, 0 skipped\n');
    expect(filter.code).toBe(0);
  });

  test('--json prints the report instead of the lines', async () => {
    const run = await runSvc(['scenario', 'run', FAIL, '--json']);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ passed: 2, failed: 1, skipped: 0 });
    expect(report.results[1]).toEqual({
      name: 'beta has a wrong expectation',
      file: `${FAIL}/02-wrong.yaml`,
      status: 'failed',
      reason: expect.stringContaining('body.first_name: expected "Grace", got "Ada"'),
      duration_ms: expect.any(Number),
      step: { number: 2, label: 'read it back: GET /contacts/{{contact_id}}' },
    });
    expect(run.code).toBe(1);
  });

  test('--junit writes a suite per folder, a case per scenario, failures and skips', async () => {
    const file = join(await tempDir(), 'reports', 'junit.xml');
    const run = await runSvc(
      [
        'scenario',
        'run',
        FAIL,
        `${PASS}/more`,
        '--base-url',
        server.url,
        '--key',
        keys.write,
        '--junit',
        file,
      ],
      { timeoutMs: 30_000 },
    );
    expect(run.code).toBe(1);
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => name === 'testsuite' || name === 'testcase',
    });
    const doc = parser.parse(await readFile(file, 'utf8'));
    const suites = doc.testsuites.testsuite;
    expect(suites.map((s: { name: string }) => s.name)).toEqual([FAIL, `${PASS}/more`]);
    expect(suites[0]).toMatchObject({ tests: '3', failures: '1', skipped: '1' });
    const [alpha, beta, gamma] = suites[0].testcase;
    expect(alpha).toMatchObject({ classname: FAIL, name: 'alpha passes' });
    expect(Number(alpha.time)).toBeGreaterThanOrEqual(0);
    expect(beta.failure.message).toBe(
      'step 2 (read it back: GET /contacts/{{contact_id}}): body.first_name: expected "Grace", got "Ada"',
    );
    expect(beta.failure['#text']).toContain('02-wrong.yaml');
    expect(gamma.skipped.message).toContain('no read key');
    expect(suites[1]).toMatchObject({ tests: '2', failures: '0', skipped: '0' });
  });

  test('bad usage exits 2: a missing path, an unknown flag, --key without --base-url', async () => {
    const missing = await runSvc(['scenario', 'run', 'no/such/folder']);
    expect(missing.stderr).toBe('error: no such file or folder: no/such/folder\n');
    expect(missing.code).toBe(2);
    const flag = await runSvc(['scenario', 'run', PASS, '--nope']);
    expect(flag.stderr).toContain("unknown option '--nope'");
    expect(flag.code).toBe(2);
    const key = await runSvc(['scenario', 'run', PASS, '--key', 'svc_live_x']);
    expect(key.stderr).toBe('error: --key and --read-key go with --base-url\n');
    expect(key.code).toBe(2);
  });

  test('svc scenario --help lists run; svc scenario run --help every flag', async () => {
    const help = await runSvc(['scenario', '--help']);
    expect(help.stdout).toMatch(/^ {2}run \[options\] \[paths\.\.\.\]/m);
    const runHelp = await runSvc(['scenario', 'run', '--help']);
    for (const flag of [
      '--base-url',
      '--key',
      '--read-key',
      '--junit',
      '--json',
      '--bail',
      '--filter',
    ]) {
      expect(runHelp.stdout).toContain(flag);
    }
    expect(runHelp.code).toBe(0);
  });
});
