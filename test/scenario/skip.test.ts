import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runScenarios, UsageError } from '../../src/clients/scenario';
import { defaultConfig } from '../../src/runtime';
import { type RunningServer, startServer } from '../../src/server';

// Against a server without svc's control API (a proxy that serves only /v1, as the real service
// would), clock and admin scenarios are skipped whole; against a faithful svc (no
// --allow-local-targets) a webhook scenario is skipped, since its receiver is local.

let dir: string;
let svc: RunningServer;
let proxy: Server;
let proxyUrl: string;
let keys: { write: string; read: string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-scenario-skip-'));
  svc = await startServer({
    port: 0,
    host: '127.0.0.1',
    data: join(dir, 'data.json'),
    seed: false,
    config: defaultConfig({ log: () => {} }),
  });
  const made = await fetch(`${svc.url}/__admin/workspaces`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  const body = (await made.json()) as { keys: { write: { key: string }; read: { key: string } } };
  keys = { write: body.keys.write.key, read: body.keys.read.key };
  proxy = createServer(async (req, res) => {
    if (!req.url?.startsWith('/v1/')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'idempotency-key']) {
      const value = req.headers[name];
      if (typeof value === 'string') {
        headers[name] = value;
      }
    }
    const answer = await fetch(`${svc.url}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? '' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await svc.close();
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, lines: string[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe('skip rules', () => {
  test('without the control API, clock and admin scenarios are skipped whole with the reason', async () => {
    const clock = await file('clock.yaml', [
      'name: moves the clock',
      'steps:',
      '  - request: {method: GET, path: /ping}',
      '  - clock: {advance: 60}',
    ]);
    const admin = await file('admin.yaml', [
      'name: uses the control API',
      'steps:',
      '  - admin: {method: GET, path: /__admin/workspaces}',
    ]);
    const plain = await file('plain.yaml', [
      'name: plain API',
      'steps:',
      '  - request: {method: GET, path: /ping}',
      '    expect: {status: 200}',
    ]);
    const report = await runScenarios({
      paths: [clock, admin, plain],
      baseUrl: proxyUrl,
      key: keys.write,
    });
    expect(report.results.map((r) => [r.name, r.status])).toEqual([
      ['moves the clock', 'skipped'],
      ['uses the control API', 'skipped'],
      ['plain API', 'passed'],
    ]);
    expect(report.results[0]?.reason).toBe(
      `it has clock or admin steps, and ${proxyUrl} has no svc control API`,
    );
    expect(report).toMatchObject({ passed: 1, failed: 0, skipped: 2 });
  });

  test('a scenario with key: read is skipped without --read-key, and runs with it', async () => {
    const read = await file('read.yaml', [
      'name: reads with the read key',
      'steps:',
      '  - request: {method: GET, path: /ping, key: read}',
      '    expect: {status: 200, body: {key: {access: read}}}',
    ]);
    const without = await runScenarios({
      paths: [read],
      baseUrl: `${proxyUrl}/v1`,
      key: keys.write,
    });
    expect(without.results[0]).toMatchObject({
      status: 'skipped',
      reason: 'a step uses key: read, and no read key was given (--read-key)',
    });
    const withKey = await runScenarios({
      paths: [read],
      baseUrl: `${proxyUrl}/`,
      key: keys.write,
      readKey: keys.read,
    });
    expect(withKey.results[0]?.status).toBe('passed');
  });

  test('a server that refuses the local receiver as a target skips the webhook scenario', async () => {
    const hook = await file('hook.yaml', [
      'name: subscribes',
      'steps:',
      '  - webhook: {event: job.created}',
      '  - delivery: {event: job.created}',
    ]);
    const report = await runScenarios({ paths: [hook], baseUrl: svc.url, key: keys.write });
    expect(report.results[0]?.status).toBe('skipped');
    expect(report.results[0]?.reason).toMatch(
      /^the server refuses the runner's receiver http:\/\/127\.0\.0\.1:\d+\/inbox-\w+ as a webhook target .*--allow-local-targets$/,
    );
  });

  test('without --key, a server with no control API is a usage error', async () => {
    const plain = await file('plain2.yaml', [
      'name: p',
      'steps:',
      '  - request: {method: GET, path: /ping}',
    ]);
    await expect(runScenarios({ paths: [plain], baseUrl: proxyUrl })).rejects.toThrow(UsageError);
    await expect(runScenarios({ paths: [plain], baseUrl: proxyUrl })).rejects.toThrow(
      /--key is needed: .* has no svc control API/,
    );
  });

  test('a --base-url that is not an http URL is a usage error', async () => {
    const plain = await file('plain3.yaml', [
      'name: p',
      'steps:',
      '  - request: {method: GET, path: /ping}',
    ]);
    await expect(
      runScenarios({ paths: [plain], baseUrl: 'ftp://example', key: 'k' }),
    ).rejects.toThrow(UsageError);
  });
});
