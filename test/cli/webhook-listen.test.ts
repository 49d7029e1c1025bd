import type { ChildProcess } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type FakeSvc, startFakeSvc } from '../listen/fake-svc';
import { BIN, cleanup, collect, type Exit, runSvc, spawnNode, tempDir } from '../support/spawn';

const SECRET = 'whsec_listen_test_secret';
const RECORD_ID = '7b0c4d2e-1111-4222-8333-94445555aa11';
const READY = /^svc webhook listen on (http:\/\/127\.0\.0\.1:(\d+))$/m;
const TIME = '\\d\\d:\\d\\d:\\d\\d';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await cleanup();
  await Promise.all(closers.splice(0).map((close) => close()));
});

interface Listener {
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  /** Waits (at most 5 s) until stdout matches. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/** `svc webhook listen --port 0 ...args`, once its ready line is out. */
async function startListen(args: string[]): Promise<Listener> {
  const child = spawnNode([BIN, 'webhook', 'listen', '--port', '0', ...args]);
  const { stdout, stderr } = collect(child);
  const waitFor = (pattern: RegExp, what = `${pattern}`) =>
    until(
      () => pattern.exec(stdout()),
      child,
      () => `${what}\nstdout: ${stdout()}\nstderr: ${stderr()}`,
    );
  const ready = await waitFor(READY, 'the ready line');
  return {
    url: ready[1] as string,
    port: Number(ready[2]),
    stdout,
    stderr,
    waitFor: (pattern) => waitFor(pattern),
    stop: (signal = 'SIGTERM') => stopChild(child, signal),
  };
}

function until<T>(
  check: () => T | null | undefined,
  child: ChildProcess,
  describe: () => string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 5000;
    const poll = () => {
      const found = check();
      if (found) {
        resolve(found);
      } else if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`svc webhook listen exited before printing ${describe()}`));
      } else if (Date.now() > deadline) {
        reject(new Error(`svc webhook listen did not print ${describe()} within 5 s`));
      } else {
        setTimeout(poll, 10);
      }
    };
    poll();
  });
}

// until() watches a child for an early exit; the in-test app is no child.
const childless = { exitCode: null, signalCode: null } as unknown as ChildProcess;

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<Exit> {
  // 'close', not 'exit': what it printed on the way out is in stdout() by then
  const exited = new Promise<Exit>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
    } else {
      child.once('close', (code, sig) => resolve({ code, signal: sig }));
    }
  });
  child.kill(signal);
  const deadline = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`pid ${child.pid} did not exit within 10 s`)),
      10_000,
    ).unref(),
  );
  return Promise.race([exited, deadline]);
}

interface SendOptions {
  secrets?: readonly string[];
  t?: number;
  eventId?: string;
  attempt?: number;
  event?: string;
  body?: string;
  signature?: string | null;
}

/** POSTs a delivery as svc would, signed here with node:crypto. */
async function send(url: string, opts: SendOptions = {}) {
  const event = opts.event ?? 'job.stage_changed';
  const eventId = opts.eventId ?? randomUUID();
  const body =
    opts.body ??
    JSON.stringify({
      id: RECORD_ID,
      object: 'job',
      name: 'Roof – 12 Elm St',
      event_type: event,
      event_id: eventId,
      event_at: new Date().toISOString(),
      event_workspace_id: randomUUID(),
    });
  const t = opts.t ?? Math.floor(Date.now() / 1000);
  const v1s = (opts.secrets ?? [SECRET]).map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`,
  );
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Service-Webhooks/2.0',
    'X-Service-Event': event,
    'X-Service-Delivery': eventId,
    'X-Service-Webhook-Id': 'wh-test',
    'X-Service-Attempt': String(opts.attempt ?? 1),
  };
  if (opts.signature !== null) {
    headers['X-Service-Signature'] = opts.signature ?? `t=${t},${v1s.join(',')}`;
  }
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started, body, eventId };
}

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An in-test app for --forward-to: records what it gets, answers `status`. */
async function startApp(status = 204): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    received.push({ headers: req.headers, body: Buffer.concat(chunks) });
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

async function fakeSvc(): Promise<FakeSvc> {
  const svc = await startFakeSvc();
  closers.push(() => svc.close());
  return svc;
}

const line = (said: string, status: number, attempt = 1) =>
  new RegExp(
    `^${TIME} job\\.stage_changed 7b0c…a11 attempt ${attempt} ${said}, answered ${status}$`,
    'm',
  );

describe('svc webhook listen --secret', () => {
  test('a delivery signed with the secret is answered 200 and printed as one line: verified, answered 200', async () => {
    const listener = await startListen(['--secret', SECRET]);
    expect(listener.stdout()).toContain('  secret     from --secret\n');
    const res = await send(listener.url, { attempt: 2 });
    expect(res.status).toBe(200);
    await listener.waitFor(line('verified', 200, 2));
    expect((await listener.stop()).code).toBe(0);
  });

  test.each([
    ['signed with another secret', 'bad signature', { secrets: ['whsec_not_it'] }],
    ['with no signature header', 'missing signature', { signature: null }],
    ['with a malformed signature header', 'malformed signature', { signature: 'sha256=abc' }],
    ['signed 400 s ago', 'stale timestamp', { t: Math.floor(Date.now() / 1000) - 400 }],
    ['signed 400 s ahead', 'stale timestamp', { t: Math.floor(Date.now() / 1000) + 400 }],
  ] as const)('a delivery %s is answered 400 and printed as %s', async (_what, verdict, opts) => {
    const listener = await startListen(['--secret', SECRET]);
    const res = await send(listener.url, opts);
    expect(res.status).toBe(400);
    await listener.waitFor(line(verdict, 400));
    await listener.stop();
  });

  test('a body changed after signing is bad-signature', async () => {
    const listener = await startListen(['--secret', SECRET]);
    const t = Math.floor(Date.now() / 1000);
    const signed = JSON.stringify({ id: RECORD_ID, event_type: 'job.stage_changed' });
    const v1 = createHmac('sha256', SECRET).update(`${t}.${signed}`).digest('hex');
    const tampered = signed.replace('job.stage_changed', 'job.deleted');
    const res = await send(listener.url, { body: tampered, signature: `t=${t},v1=${v1}` });
    expect(res.status).toBe(400);
    await listener.waitFor(line('bad signature', 400));
    await listener.stop();
  });

  test('during a rotation: two --secret values, and a header with two v1 of which one matches', async () => {
    const listener = await startListen(['--secret', 'whsec_old_one', '--secret', SECRET]);
    expect(listener.stdout()).toContain('from --secret (2, any may sign)');
    expect((await send(listener.url, { secrets: ['whsec_old_one'] })).status).toBe(200);
    expect((await send(listener.url, { secrets: ['whsec_gone', SECRET] })).status).toBe(200);
    expect((await send(listener.url, { secrets: ['whsec_gone'] })).status).toBe(400);
    await listener.stop();
  });

  test('--tolerance 600 accepts a signature 400 s old', async () => {
    const listener = await startListen(['--secret', SECRET, '--tolerance', '600']);
    const res = await send(listener.url, { t: Math.floor(Date.now() / 1000) - 400 });
    expect(res.status).toBe(200);
    await listener.stop();
  });

  test('a repeat of an acknowledged event id is answered 200 and printed as duplicate', async () => {
    const listener = await startListen(['--secret', SECRET]);
    const first = await send(listener.url);
    const again = await send(listener.url, { eventId: first.eventId, attempt: 2 });
    expect([first.status, again.status]).toEqual([200, 200]);
    await listener.waitFor(line('verified', 200, 1));
    await listener.waitFor(line('duplicate', 200, 2));
    await listener.stop();
  });

  test('--respond 500,500,200 answers one event retried three times, then repeats 200', async () => {
    const listener = await startListen(['--secret', SECRET, '--respond', '500,500,200']);
    expect(listener.stdout()).toContain('answering  500, 500, then 200 to verified deliveries');
    const eventId = randomUUID();
    const statuses: number[] = [];
    for (const attempt of [1, 2, 3, 4]) {
      statuses.push((await send(listener.url, { eventId, attempt })).status);
    }
    expect(statuses).toEqual([500, 500, 200, 200]);
    // a retry after a 500 is processed again; only the one after the 200 is a duplicate
    await listener.waitFor(line('verified', 500, 1));
    await listener.waitFor(line('verified', 500, 2));
    await listener.waitFor(line('verified', 200, 3));
    await listener.waitFor(line('duplicate', 200, 4));
    await listener.stop();
  });

  test('--respond 503: a single value answers every verified delivery; rejected ones stay 400', async () => {
    const listener = await startListen(['--secret', SECRET, '--respond', '503']);
    expect((await send(listener.url)).status).toBe(503);
    expect((await send(listener.url)).status).toBe(503);
    expect((await send(listener.url, { secrets: ['whsec_wrong'] })).status).toBe(400);
    await listener.stop();
  });

  test('--delay 400 waits before answering', async () => {
    const listener = await startListen(['--secret', SECRET, '--delay', '400']);
    const res = await send(listener.url);
    expect(res.status).toBe(200);
    expect(res.ms).toBeGreaterThanOrEqual(390);
    expect(res.ms).toBeLessThan(5000);
    await listener.stop();
  });

  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s ends it with one line counting the deliveries received, rejected and duplicate ones too',
    async (signal) => {
      const listener = await startListen(['--secret', SECRET]);
      const first = await send(listener.url);
      await send(listener.url, { eventId: first.eventId, attempt: 2 });
      await send(listener.url, { secrets: ['whsec_wrong'] });
      await listener.waitFor(line('bad signature', 400));
      expect(await listener.stop(signal)).toEqual({ code: 0, signal: null });
      expect(listener.stdout()).toMatch(
        /, answered 400\nsvc webhook listen stopped: 3 deliveries received\n$/,
      );
    },
  );

  test('SIGTERM with nothing received says 0 deliveries', async () => {
    const listener = await startListen(['--secret', SECRET]);
    expect(await listener.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(listener.stdout()).toMatch(
      /\nsvc webhook listen on \S+\nsvc webhook listen stopped: 0 deliveries received\n$/,
    );
  });

  test('SIGINT or SIGTERM stops it with exit 0 and frees the port', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const listener = await startListen(['--secret', SECRET]);
      expect(await listener.stop(signal)).toEqual({ code: 0, signal: null });
      await expect(send(listener.url)).rejects.toThrow();
    }
  });
});

describe('svc webhook listen without --secret', () => {
  test('accepts every delivery unverified, says so, dedupes, and forwards the fresh ones', async () => {
    const app = await startApp(204);
    const listener = await startListen(['--forward-to', app.url]);
    expect(listener.stdout()).toMatch(/^svc webhook listen: NOT verifying signatures/m);
    const unsigned = await send(listener.url, { signature: null });
    const forged = await send(listener.url, { secrets: ['whsec_anything'] });
    const again = await send(listener.url, { eventId: unsigned.eventId, attempt: 2 });
    expect([unsigned.status, forged.status, again.status]).toEqual([200, 200, 200]);
    await listener.waitFor(line('unverified', 200, 1));
    await listener.waitFor(line('duplicate', 200, 2));
    expect((await listener.stop()).code).toBe(0);
    expect(app.received.map((r) => r.body.toString('utf8'))).toEqual([unsigned.body, forged.body]);
  });
});

describe('svc webhook listen --record', () => {
  test('appends one JSON line per delivery: received_at, verdict, status, delivery headers, raw body', async () => {
    const file = join(await tempDir(), 'deliveries.jsonl');
    const listener = await startListen(['--secret', SECRET, '--record', file]);
    expect(listener.stdout()).toContain(`  recording  to ${file}`);
    // spaced JSON: a parse and re-serialise would change these bytes, and the signature with them
    const ok = await send(listener.url, {
      body: `{ "id": "${RECORD_ID}",\n  "amount": 1.50, "event_id": "${randomUUID()}" }`,
    });
    await send(listener.url, { eventId: ok.eventId });
    const bad = await send(listener.url, { secrets: ['whsec_wrong'] });
    const text = await send(listener.url, { body: 'not json' });
    expect((await listener.stop()).code).toBe(0);

    const lines = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => `${l.verdict} ${l.status}`)).toEqual([
      'ok 200',
      'duplicate 200',
      'bad-signature 400',
      'ok 200',
    ]);
    const [first] = lines;
    expect(Object.keys(first).sort()).toEqual([
      'body',
      'headers',
      'received_at',
      'status',
      'verdict',
    ]);
    expect(Date.parse(first.received_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(first.body).toBe(ok.body);
    expect(Object.keys(first.headers).sort()).toEqual([
      'content-type',
      'user-agent',
      'x-service-attempt',
      'x-service-delivery',
      'x-service-event',
      'x-service-signature',
      'x-service-webhook-id',
    ]);
    expect(first.headers['x-service-delivery']).toBe(ok.eventId);
    expect(first.headers['user-agent']).toBe('Service-Webhooks/2.0');
    expect(lines[2].body).toBe(bad.body);
    expect(lines[3].body).toBe(text.body);
  });

  test('a --record file that cannot be opened stops it at start with exit 1', async () => {
    const file = join(await tempDir(), 'no-such-dir', 'deliveries.jsonl');
    const run = await runSvc([
      'webhook',
      'listen',
      '--port',
      '0',
      '--secret',
      SECRET,
      '--record',
      file,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(file);
    expect(run.stdout).not.toMatch(READY);
  });
});

describe('svc webhook listen --forward-to', () => {
  test('passes each verified delivery on with the same bytes and headers; never a rejected one nor a duplicate', async () => {
    const app = await startApp(204);
    const listener = await startListen(['--secret', SECRET, '--forward-to', app.url]);
    const ok = await send(listener.url, { attempt: 3 });
    expect(ok.status).toBe(200); // the listener's answer, not the app's 204
    expect((await send(listener.url, { secrets: ['whsec_wrong'] })).status).toBe(400);
    expect((await send(listener.url, { eventId: ok.eventId, attempt: 4 })).status).toBe(200);
    await listener.waitFor(line('duplicate', 200, 4));
    await until(
      () => app.received.length >= 1,
      childless,
      () => 'a forwarded delivery',
    );
    await listener.stop(); // waits for forwards in flight: a duplicate forward would be in by now

    expect(app.received).toHaveLength(1);
    const [got] = app.received;
    expect(got?.body.toString('utf8')).toBe(ok.body);
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['x-service-delivery']).toBe(ok.eventId);
    expect(got?.headers['x-service-attempt']).toBe('3');
    expect(got?.headers['x-service-event']).toBe('job.stage_changed');
    expect(got?.headers['x-service-webhook-id']).toBe('wh-test');
    expect(got?.headers['user-agent']).toBe('Service-Webhooks/2.0');
    // the app can verify the signature itself with the same secret
    const [t, v1] = String(got?.headers['x-service-signature']).split(',');
    const expected = createHmac('sha256', SECRET)
      .update(`${t?.slice(2)}.${ok.body}`)
      .digest('hex');
    expect(v1).toBe(`v1=${expected}`);
  });

  test('a failing forward prints a warning and leaves the answer unchanged', async () => {
    const app = await startApp(500);
    const listener = await startListen(['--secret', SECRET, '--forward-to', app.url]);
    expect((await send(listener.url)).status).toBe(200);
    await until(
      () => /warning: forwarding .* was answered 500/.exec(listener.stderr()),
      childless,
      () => `a warning on stderr: ${listener.stderr()}`,
    );
    await listener.stop();
  });
});

describe('svc webhook listen --server', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)(
    'subscribes itself, verifies with the returned secret, and deletes the subscription on %s',
    async (signal) => {
      const svc = await fakeSvc();
      const listener = await startListen([
        '--server',
        svc.url,
        '--key',
        svc.key,
        '--events',
        'job.created',
      ]);
      expect(svc.calls).toHaveLength(1);
      expect(svc.calls[0]).toMatchObject({
        method: 'POST',
        path: '/v1/webhooks',
        authorization: `Bearer ${svc.key}`,
        body: { event: 'job.created', target_url: `${listener.url}/` },
      });
      const [webhook] = [...svc.webhooks.values()];
      expect(listener.stdout()).toContain(
        `  secret     ${webhook?.secret} (from the new subscription)`,
      );
      expect(listener.stdout()).toContain(
        `  subscribed ${webhook?.id} job.created on ${svc.url}/v1 (deleted on exit)`,
      );

      expect(await svc.deliver(webhook?.id ?? '', { id: RECORD_ID, object: 'job' })).toBe(200);
      await listener.waitFor(
        new RegExp(`^${TIME} job\\.created 7b0c…a11 attempt 1 verified, answered 200$`, 'm'),
      );

      expect(await listener.stop(signal)).toEqual({ code: 0, signal: null });
      expect(svc.calls.at(-1)).toMatchObject({
        method: 'DELETE',
        path: `/v1/webhooks/${webhook?.id}`,
      });
      expect(svc.webhooks.size).toBe(0);
    },
  );

  test('--events with several names sends {events}; without --events it subscribes to *', async () => {
    const svc = await fakeSvc();
    const several = await startListen([
      '--server',
      `${svc.url}/v1`,
      '--key',
      svc.key,
      '--events',
      'job.created,job.deleted',
    ]);
    expect(svc.calls[0]?.body).toMatchObject({ events: ['job.created', 'job.deleted'] });
    expect(svc.webhooks.size).toBe(2);
    const all = await startListen(['--server', svc.url, '--key', svc.key]);
    expect(svc.calls[1]?.body).toMatchObject({ event: '*', target_url: `${all.url}/` });
    expect((await several.stop()).code).toBe(0);
    expect((await all.stop()).code).toBe(0);
    expect(svc.webhooks.size).toBe(0);
  });

  test('a subscription left behind by a killed listener (200, no secret) is replaced on the next start', async () => {
    const svc = await fakeSvc();
    const killed = await startListen(['--server', svc.url, '--key', svc.key]);
    const [leftover] = [...svc.webhooks.keys()];
    await killed.stop('SIGKILL');
    expect(svc.webhooks.size).toBe(1); // no chance to clean up

    const listener = await startListen([
      '--server',
      svc.url,
      '--key',
      svc.key,
      '--port',
      String(killed.port),
    ]);
    expect(listener.url).toBe(killed.url);
    expect(listener.stdout()).toContain(`  replaced   ${leftover} (an identical subscription`);
    const [fresh] = [...svc.webhooks.values()];
    expect(fresh?.id).not.toBe(leftover);
    expect(await svc.deliver(fresh?.id ?? '', { id: RECORD_ID })).toBe(200);
    expect((await listener.stop()).code).toBe(0);
    expect(svc.webhooks.size).toBe(0);
  });

  test('a refused subscription stops it with exit 1 and one line naming the cause', async () => {
    const svc = await fakeSvc();
    svc.failNextPost(400, 'invalid_request', 'target_url');
    const run = await runSvc([
      'webhook',
      'listen',
      '--port',
      '0',
      '--server',
      svc.url,
      '--key',
      svc.key,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^svc: POST .* answered 400 invalid_request.*--allow-local-targets\)\n$/,
    );
    expect(run.stdout).not.toMatch(READY);
  });

  test('a wrong key stops it with exit 1', async () => {
    const svc = await fakeSvc();
    const run = await runSvc([
      'webhook',
      'listen',
      '--port',
      '0',
      '--server',
      svc.url,
      '--key',
      'svc_live_nope',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('answered 401 unauthorized');
  });

  test('a subscription it cannot delete on exit is reported and the exit code is 1', async () => {
    const svc = await fakeSvc();
    const listener = await startListen(['--server', svc.url, '--key', svc.key]);
    await svc.close();
    expect((await listener.stop()).code).toBe(1);
    expect(listener.stderr()).toMatch(/could not delete subscription/);
  });
});

describe('svc webhook listen: usage', () => {
  test('--help lists every flag and an example', async () => {
    const run = await runSvc(['webhook', 'listen', '--help']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--secret',
      '--server',
      '--key',
      '--events',
      '--respond',
      '--delay',
      '--forward-to',
      '--record',
      '--tolerance',
    ]) {
      expect(run.stdout).toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
    }
    expect(run.stdout).toContain('svc webhook listen --secret whsec_');
  });

  test.each([
    ['a secret without the whsec_ prefix', ['--secret', 'abc']],
    ['--server without --key', ['--server', 'http://127.0.0.1:9']],
    ['--key without --server', ['--secret', SECRET, '--key', 'svc_live_x']],
    ['--events without --server', ['--secret', SECRET, '--events', '*']],
    ['--server that is not a URL', ['--server', 'localhost:4010', '--key', 'k']],
    [
      '--events with a bad name',
      ['--server', 'http://127.0.0.1:9', '--key', 'k', '--events', 'Job Created'],
    ],
    [
      '--events mixing * and names',
      ['--server', 'http://127.0.0.1:9', '--key', 'k', '--events', '*,job.created'],
    ],
    ['--respond 99', ['--secret', SECRET, '--respond', '99']],
    ['--respond 600', ['--secret', SECRET, '--respond', '600']],
    ['--respond 200,abc', ['--secret', SECRET, '--respond', '200,abc']],
    ['--delay -1', ['--secret', SECRET, '--delay', '-1']],
    ['--tolerance 0', ['--secret', SECRET, '--tolerance', '0']],
    ['--port 70000', ['--secret', SECRET, '--port', '70000']],
    ['--forward-to ftp://x', ['--secret', SECRET, '--forward-to', 'ftp://127.0.0.1/x']],
    ['an unknown flag', ['--secret', SECRET, '--bogus']],
  ])('%s exits 2 with exactly one line on stderr', async (_what, args) => {
    const run = await runSvc(['webhook', 'listen', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^[^\n]+\n$/);
    expect(run.stdout).toBe('');
  });
});
