import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  loadFile,
  resultLine,
  runScenarios,
  substitute,
  UnknownName,
  UsageError,
} from '../../src/clients/scenario';
import { buildRequest } from '../../src/clients/scenario/request';
import { defaultConfig } from '../../src/runtime';
import { type RunningServer, startServer } from '../../src/server';

// The issue-18 probe's findings on the scenario engine: a polite client under the rate limit,
// teardown, up-front checks of the server and the key, file checks, and what a run that ran
// nothing says.

let dir: string;
let svc: RunningServer;
let ws: { id: string; write: string };

async function adminCall(method: string, path: string, body?: unknown) {
  const res = await fetch(`${svc.url}/__admin${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-polite-test-'));
  svc = await startServer({
    port: 0,
    host: '127.0.0.1',
    data: join(dir, 'data.json'),
    seed: false,
    config: defaultConfig({ allowLocalTargets: true, log: () => {} }),
  });
  const made = await adminCall('POST', '/workspaces', { name: 'polite test' });
  const keys = made.body.keys as { write: { key: string } };
  ws = { id: String(made.body.id), write: keys.write.key };
});
afterAll(async () => {
  await svc.close();
  await rm(dir, { recursive: true, force: true });
});

async function scenarioFile(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

/** A server that is not svc: /ping answers, /v1/things is 429 (Retry-After: 1) `limited` times. */
async function limitedServer(
  limited: number,
): Promise<{ url: string; hits: number[]; close: () => Promise<void> }> {
  const hits: number[] = [];
  let left = limited;
  const server: Server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/v1/ping') {
      res.end(JSON.stringify({ ok: true, workspace_id: 'w1', key: { access: 'write' } }));
      return;
    }
    if (req.url === '/v1/things') {
      hits.push(Date.now());
      if (left > 0) {
        left--;
        res.statusCode = 429;
        res.setHeader('Retry-After', '1');
        res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }));
        return;
      }
      res.end(JSON.stringify({ ok: true }));
      return;
    }
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

describe('a polite client under the rate limit', () => {
  test('a 429 the step does not expect is waited out as Retry-After says, then sent again', async () => {
    const server = await limitedServer(1);
    try {
      const file = await scenarioFile(
        'limited.yaml',
        'name: limited\nsteps:\n  - request: {method: GET, path: /things}\n    expect: {status: 200}\n',
      );
      const report = await runScenarios({ paths: [file], baseUrl: server.url, key: 'k' });
      expect(report.results[0]).toMatchObject({ status: 'passed' });
      expect(server.hits).toHaveLength(2);
      expect((server.hits[1] ?? 0) - (server.hits[0] ?? 0)).toBeGreaterThanOrEqual(900);
    } finally {
      await server.close();
    }
  });

  test('a step that expects 429 gets it as it came, not retried', async () => {
    const server = await limitedServer(1);
    try {
      const file = await scenarioFile(
        'expects-429.yaml',
        'name: expects 429\nsteps:\n  - request: {method: GET, path: /things}\n    expect: {status: 429}\n',
      );
      const report = await runScenarios({ paths: [file], baseUrl: server.url, key: 'k' });
      expect(report.results[0]).toMatchObject({ status: 'passed' });
      expect(server.hits).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('teardown: steps that always run after the steps', () => {
  test('teardown runs after a failed step: plan-required switched back on; the first failure stays the reason', async () => {
    const file = await scenarioFile(
      'plan-off.yaml',
      [
        'name: plan off then a failure',
        'steps:',
        '  - admin: {method: PATCH, path: "/__admin/workspaces/{{workspace_id}}", body: {subscription_active: false}}',
        '  - request: {method: GET, path: /ping}',
        '    expect: {status: 200}',
        'teardown:',
        '  - admin: {method: PATCH, path: "/__admin/workspaces/{{workspace_id}}", body: {subscription_active: true}}',
        '    expect: {status: 200}',
        '',
      ].join('\n'),
    );
    const report = await runScenarios({ paths: [file], baseUrl: svc.url, key: ws.write });
    expect(report.results[0]).toMatchObject({ status: 'failed', step: { number: 2 } });
    expect(report.results[0]?.reason).toMatch(
      /^step 2 \(GET \/ping\): status: expected 200, got 402/,
    );
    const ping = await fetch(`${svc.url}/v1/ping`, {
      headers: { Authorization: `Bearer ${ws.write}` },
    });
    expect(ping.status).toBe(200);
  });

  test('a teardown failure fails a passing scenario, and is added after a first failure', async () => {
    const failing = '  - request: {method: GET, path: /nope-teardown}\n';
    const passes = await scenarioFile(
      'teardown-fails.yaml',
      `name: teardown fails\nsteps:\n  - request: {method: GET, path: /ping}\nteardown:\n${failing}`,
    );
    const both = await scenarioFile(
      'both-fail.yaml',
      `name: both fail\nsteps:\n  - request: {method: GET, path: /nope-step}\nteardown:\n${failing}`,
    );
    const report = await runScenarios({ paths: [passes, both] });
    expect(report.results[0]).toMatchObject({ status: 'failed', step: null });
    expect(report.results[0]?.reason).toMatch(/^teardown step 1 \(GET \/nope-teardown\): status:/);
    expect(report.results[1]?.reason).toMatch(
      /^step 1 \(GET \/nope-step\): status: .*\n {2}and teardown step 1 \(GET \/nope-teardown\)/s,
    );
  });

  test('the shipped plan-required.yaml has a teardown that switches the plan back on', async () => {
    const loaded = await loadFile('scenarios/platform/plan-required.yaml');
    expect(loaded.ok && loaded.scenario.teardown?.[0]?.admin?.body).toEqual({
      subscription_active: true,
    });
  });
});

describe('--base-url and --key are checked before anything runs', () => {
  const one = 'test/scenario/fixtures/fail/01-passes.yaml';

  test('a server that is down: cannot reach URL: connection refused', async () => {
    const server = await limitedServer(0);
    await server.close();
    const err = await runScenarios({ paths: [one], baseUrl: server.url }).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(`cannot reach ${server.url}: connection refused`);
  });

  test('a wrong key is a usage error naming --key', async () => {
    const err = await runScenarios({ paths: [one], baseUrl: svc.url, key: 'svc_live_wrong' }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^--key is not a working key of .* answered 401/);
  });

  test('a key of a workspace without its plan (402) is a usage error', async () => {
    const made = await adminCall('POST', '/workspaces', { name: 'unpaid' });
    const key = (made.body.keys as { write: { key: string } }).write.key;
    await adminCall('PATCH', `/workspaces/${made.body.id}`, { subscription_active: false });
    const err = await runScenarios({ paths: [one], baseUrl: svc.url, key }).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/no active subscription \(GET \/ping answered 402/);
  });
});

describe('against a --base-url svc, subscriptions go at the end of each scenario', () => {
  test('without --key too: the workspace svc made has no webhook left', async () => {
    const file = await scenarioFile(
      'hook.yaml',
      'name: hook left behind?\nsteps:\n  - webhook: {event: contact.created}\n',
    );
    const before = await adminCall('GET', '/workspaces?limit=100');
    const known = new Set((before.body.data as { id: string }[]).map((w) => w.id));
    const report = await runScenarios({ paths: [file], baseUrl: svc.url });
    expect(report.passed).toBe(1);
    const after = await adminCall('GET', '/workspaces?limit=100');
    const made = (after.body.data as { id: string }[]).filter((w) => !known.has(w.id));
    expect(made).toHaveLength(1);
    const hooks = await adminCall('GET', `/webhooks?workspace_id=${made[0]?.id}`);
    expect(hooks.body.data).toEqual([]);
  });
});

describe('a run that runs nothing is bad usage', () => {
  test('no scenario matched: a --filter that matches nothing', async () => {
    const err = await runScenarios({
      paths: ['test/scenario/fixtures/fail'],
      filter: 'zzz-nothing',
    }).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^no scenario matched --filter "zzz-nothing"/);
  });

  test('no scenario matched: an empty folder', async () => {
    const empty = join(dir, 'empty');
    await mkdir(empty);
    const err = await runScenarios({ paths: [empty] }).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^no scenario matched: no \.yaml/);
  });
});

describe('scenario file checks', () => {
  const bad: [string, string, RegExp][] = [
    [
      'a request with both body and form',
      'steps:\n  - request: {method: POST, path: /x, body: {a: 1}, form: {a: "1"}}\n',
      /steps\.0\.request: a request sends one of body, form or multipart/,
    ],
    [
      'key that is a literal',
      'steps:\n  - request: {method: GET, path: /ping, key: svc_live_literal}\n',
      /steps\.0\.request\.key: write, read, none or a captured token/,
    ],
    [
      'an all-matcher object whose match is not a regex',
      'steps:\n  - request: {method: GET, path: /ping}\n    expect: {body: {id: {match: "[a-"}}}\n',
      /steps\.0\.expect\.body\.id\.match: "\[a-" is not a valid regular expression/,
    ],
    [
      'clock with advance and set',
      'steps:\n  - clock: {advance: 5, set: "2026-01-01T00:00:00Z"}\n',
      /steps\.0\.clock: one of advance or set/,
    ],
  ];
  for (const [what, steps, message] of bad) {
    test(`a bad file: ${what}`, async () => {
      const file = await scenarioFile(`bad-${what.replace(/\W+/g, '-')}.yaml`, `name: x\n${steps}`);
      const loaded = await loadFile(file);
      expect(loaded.ok).toBe(false);
      expect(loaded.ok ? '' : loaded.error).toMatch(message);
    });
  }

  test('key may be a {{name}}; form values may be numbers and booleans, sent as text', async () => {
    const file = await scenarioFile(
      'form.yaml',
      'name: x\nsteps:\n  - request: {method: POST, path: /x, key: "{{token}}", form: {quantity: 2, ok: true}}\n',
    );
    const loaded = await loadFile(file);
    expect(loaded.ok).toBe(true);
    const spec = loaded.ok ? loaded.scenario.steps[0]?.request : undefined;
    const out = await buildRequest(
      { ...(spec as NonNullable<typeof spec>), key: 'tok' },
      {
        base: 'http://h/v1',
        origin: 'http://h',
        control: false,
        keys: { write: 'w', read: undefined, workspaceId: undefined },
        vars: new Map(),
        inbox: undefined,
        dir,
        webhooks: [],
      },
    );
    expect(String(out.body)).toBe('quantity=2&ok=true');
    expect(out.headers?.Authorization).toBe('Bearer tok');
  });

  test('{{a.b}} reads into a captured object; an unknown field: c has no field nope', () => {
    const vars = new Map<string, unknown>([['job', { job_number: 1042, tags: ['hail'] }]]);
    expect(substitute('{{job.job_number}}', vars)).toBe(1042);
    expect(substitute('Job #{{job.job_number}} {{job.tags.0}}', vars)).toBe('Job #1042 hail');
    expect(() => substitute('{{job.nope}}', vars)).toThrow(UnknownName);
    expect(() => substitute('{{job.nope}}', vars)).toThrow('{{job.nope}}: job has no field nope');
  });

  test('a malformed file names its path once, in the line and the report', async () => {
    const file = await scenarioFile('broken.yaml', 'name: x\nsteps: []\n');
    const report = await runScenarios({ paths: [file] });
    const r = report.results[0];
    expect(r?.reason).not.toContain('broken.yaml');
    const line = resultLine(r as NonNullable<typeof r>);
    expect(line.split('broken.yaml')).toHaveLength(2);
  });
});
