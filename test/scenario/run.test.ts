import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MissingPath, runScenarios, UsageError } from '../../src/clients/scenario';

// runScenarios in-process (no --base-url): svc on a fresh temporary store, a workspace a scenario.

const FIXTURES = 'test/scenario/fixtures';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-scenario-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function scenarioFile(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

describe('runScenarios in-process', () => {
  test('a folder covering every step kind and matcher passes, walked recursively and sorted', async () => {
    const report = await runScenarios({ paths: [`${FIXTURES}/pass`] });
    expect(report.results.map((r) => [r.file, r.status, r.reason])).toEqual([
      [`${FIXTURES}/pass/contact-lifecycle.yaml`, 'passed', null],
      [`${FIXTURES}/pass/more/filtered.yaml`, 'passed', null],
      [`${FIXTURES}/pass/more/matchers.json`, 'passed', null],
    ]);
    expect(report).toMatchObject({ passed: 3, failed: 0, skipped: 0 });
  });

  test('a wrong expectation fails naming the step, its label, the path, expected and got', async () => {
    const report = await runScenarios({ paths: [`${FIXTURES}/fail/02-wrong.yaml`] });
    expect(report.results[0]).toMatchObject({
      name: 'beta has a wrong expectation',
      status: 'failed',
      reason:
        'step 2 (read it back: GET /contacts/{{contact_id}}): body.first_name: expected "Grace", got "Ada"',
      step: { number: 2, label: 'read it back: GET /contacts/{{contact_id}}' },
    });
  });

  test('--bail stops after the first failure; what was not run is not counted', async () => {
    const report = await runScenarios({ paths: [`${FIXTURES}/fail`], bail: true });
    expect(report.results.map((r) => r.status)).toEqual(['passed', 'failed']);
    expect(report).toMatchObject({ passed: 1, failed: 1, skipped: 0 });
  });

  test('--filter runs only names containing the text, in any case', async () => {
    const seen: string[] = [];
    const report = await runScenarios({
      paths: [`${FIXTURES}/fail`],
      filter: 'GAMMA',
      onResult: (r) => seen.push(r.name),
    });
    expect(seen).toEqual(['gamma passes']);
    expect(report.passed).toBe(1);
  });

  test('a path that does not exist is a usage error', async () => {
    await expect(runScenarios({ paths: [join(dir, 'nope')] })).rejects.toBeInstanceOf(MissingPath);
  });

  test('--key without --base-url is a usage error', async () => {
    await expect(
      runScenarios({ paths: [`${FIXTURES}/fail/01-passes.yaml`], key: 'svc_live_x' }),
    ).rejects.toBeInstanceOf(UsageError);
  });
});

describe('a bad scenario file is a failed scenario naming the file and the problem', () => {
  const cases: [string, string, string, RegExp][] = [
    ['a YAML syntax error', 'syntax.yaml', 'name: x\nsteps: [\n  - request: {', /cannot be parsed/],
    [
      'a step with two kinds',
      'two-kinds.yaml',
      'name: x\nsteps:\n  - request: {method: GET, path: /ping}\n    clock: {advance: 1}\n',
      /steps\.0: a step has exactly one kind, not request and clock/,
    ],
    [
      'an unknown matcher',
      'unknown-matcher.yaml',
      'name: x\nsteps:\n  - request: {method: GET, path: /ping}\n    expect: {status: {between: [200, 299]}}\n',
      /steps\.0\.expect\.status: unknown matcher \{"between":\[200,299\]\}/,
    ],
    ['no steps', 'no-steps.json', '{"name": "x", "steps": []}', /steps: /],
    [
      'a misspelt key',
      'typo.yaml',
      'name: x\nsteps:\n  - request: {method: GET, path: /ping}\n    expects: {status: 200}\n',
      /steps\.0: .*expects/,
    ],
    [
      'an admin path outside /__admin',
      'admin.yaml',
      'name: x\nsteps:\n  - admin: {method: GET, path: /v1/ping}\n',
      /steps\.0\.admin\.path: an admin path starts with \/__admin/,
    ],
  ];
  test.each(cases)('%s', async (_, name, text, problem) => {
    const file = await scenarioFile(name, text);
    const report = await runScenarios({ paths: [file] });
    const [result] = report.results;
    expect(result?.status).toBe('failed');
    expect(result?.file).toContain(name);
    // named once: the result's name is the path, the reason is the problem alone
    expect(result?.name).toContain(name);
    expect(result?.reason).not.toContain(name);
    expect(result?.reason).toMatch(problem);
  });

  test('an unknown {{name}} fails its step naming it', async () => {
    const file = await scenarioFile(
      'unknown-name.yaml',
      'name: x\nsteps:\n  - request: {method: GET, path: "/jobs/{{job_id}}"}\n',
    );
    const report = await runScenarios({ paths: [file] });
    expect(report.results[0]?.reason).toBe(
      'step 1 (GET /jobs/{{job_id}}): {{job_id}} is not a captured or built-in name',
    );
  });

  test('a capture path that is not in the answer fails the step', async () => {
    const file = await scenarioFile(
      'capture.yaml',
      'name: x\nsteps:\n  - request: {method: GET, path: /ping}\n    capture: {id: data.0.id}\n',
    );
    const report = await runScenarios({ paths: [file] });
    expect(report.results[0]?.reason).toMatch(
      /^step 1 \(GET \/ping\): capture id: nothing at data\.0\.id/,
    );
  });

  test('a 4xx without expect.status fails a set-up step with the error code', async () => {
    const file = await scenarioFile(
      'setup.yaml',
      'name: x\nsteps:\n  - request: {method: POST, path: /contacts, body: {}}\n',
    );
    const report = await runScenarios({ paths: [file] });
    expect(report.results[0]?.reason).toMatch(
      /^step 1 \(POST \/contacts\): status: expected a 2xx or 3xx, got 400 invalid_request/,
    );
  });

  test('repeat applies expect to every answer and names the one that failed', async () => {
    const file = await scenarioFile(
      'repeat.yaml',
      [
        'name: x',
        'steps:',
        '  - request: {method: POST, path: /contacts, body: {first_name: A}, headers: {Idempotency-Key: "r-{{run_id}}"}, repeat: 2}',
        '    expect: {status: 201, headers: {Idempotent-Replayed: {exists: false}}}',
      ].join('\n'),
    );
    const report = await runScenarios({ paths: [file] });
    expect(report.results[0]?.reason).toMatch(
      /header\.Idempotent-Replayed: expected absent, got "true" \(request 2 of 2\)$/,
    );
  });

  test('a delivery that never comes fails with the event and the time waited', async () => {
    const file = await scenarioFile(
      'no-delivery.yaml',
      [
        'name: x',
        'steps:',
        '  - webhook: {event: task.created}',
        '  - delivery: {event: task.created, within_ms: 200}',
      ].join('\n'),
    );
    const report = await runScenarios({ paths: [file] });
    expect(report.results[0]?.reason).toBe(
      'step 2 (delivery task.created): no task.created delivery arrived within 200 ms',
    );
  });

  test('a delivery whose body does not match fails showing the body path', async () => {
    const file = await scenarioFile(
      'bad-delivery.yaml',
      [
        'name: x',
        'steps:',
        '  - webhook: {event: contact.created}',
        '  - request: {method: POST, path: /contacts, body: {first_name: Ada}}',
        '  - delivery: {event: contact.created, within_ms: 1500, body: {first_name: Grace}}',
      ].join('\n'),
    );
    const report = await runScenarios({ paths: [file] });
    expect(report.results[0]?.reason).toBe(
      'step 3 (delivery contact.created): delivery contact.created: body.first_name: expected "Grace", got "Ada"',
    );
  });
});
