// svc webhook listen's receiver chaos and signature doctor through real processes (issue 19;
// DESIGN: `--duplicate P` and `--drop P` as a share from 0 to 1, and `--reorder N`). spec,
// Receiver responses and retries: a network error is retried, one minute before the second
// attempt; Delivery body: dedupe on event_id, order by event_at; Signature verification 2: two v1
// during a rotation. Only the processes started here are ever signalled, by their PID.
import { createHmac, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { seededShuffle } from '../../src/clients/listen/chaos';
import { type HttpReply, http, runSvc, startServe, tempDir } from '../support/spawn';
import {
  childless,
  RECORD_ID,
  SECRET,
  send,
  startApp,
  startListen,
  TIME,
  until,
} from './listen-setup';

/** A line of the listener for a job.stage_changed delivery of RECORD_ID, then `rest`. */
const said = (rest: string, attempt = 1) =>
  new RegExp(`^${TIME} job\\.stage_changed 7b0c…a11 attempt ${attempt} ${rest}$`, 'm');

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Polls `read` (at most 10 s, every 50 ms) until `done` holds for its answer. */
async function eventually(
  read: () => Promise<HttpReply>,
  done: (reply: HttpReply) => boolean,
): Promise<HttpReply> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const reply = await read();
    if (done(reply)) {
      return reply;
    }
    if (Date.now() > deadline) {
      throw new Error(`not reached within 10 s: ${JSON.stringify(reply.body)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A real svc serve with one empty workspace: its URL and write key. */
async function realSvc() {
  const server = await startServe(join(await tempDir(), 'data.json'), [
    '--no-seed',
    '--allow-local-targets',
  ]);
  const made = await http(`${server.url}/__admin/workspaces`, {
    method: 'POST',
    body: { name: 'Chaos', profile: 'empty' },
  });
  expect(made.status).toBe(201);
  return { server, key: made.body.keys.write.key as string };
}

describe('--drop', () => {
  test('--drop 1: a real svc sees no answer, logs a network error, and retries a minute later', async () => {
    const { server, key } = await realSvc();
    const listener = await startListen([
      '--server',
      server.url,
      '--key',
      key,
      '--events',
      'job.created',
      '--drop',
      '1',
    ]);
    expect(listener.stdout()).toMatch(
      /^ {2}chaos {6}drop 1 \(no answer: the connection is closed, svc retries\); seed \d+ \(--seed \d+ repeats it\)$/m,
    );
    const webhook = (await http(`${server.url}/v1/webhooks`, { key })).body.data[0];
    const job = await http(`${server.url}/v1/jobs`, {
      method: 'POST',
      key,
      body: { name: 'Dropped roof', address: '3 Elm St' },
    });
    expect(job.status).toBe(201);
    const short = `${job.body.id.slice(0, 4)}…${job.body.id.slice(-3)}`;
    const dropped = (attempt: number) =>
      new RegExp(
        `^${TIME} job\\.created ${short} attempt ${attempt} verified, dropped \\(no answer\\)$`,
        'm',
      );
    await listener.waitFor(dropped(1));

    const log = () => http(`${server.url}/__admin/webhooks/${webhook.id}/deliveries`);
    const first = await eventually(log, (r) => r.body.data[0]?.attempts.length === 1);
    expect(first.body.data[0].attempts[0]).toMatchObject({ n: 1, status_code: null });
    expect(first.body.data[0].attempts[0].error).toMatch(/connection reset|socket hang up/);
    expect(first.body.data[0].state).not.toBe('succeeded');

    // spec: one minute before the second attempt; the admin clock makes it due
    const moved = await http(`${server.url}/__admin/clock`, {
      method: 'POST',
      body: { advance_seconds: 61 },
    });
    expect(moved.status).toBe(200);
    await listener.waitFor(dropped(2));
    const second = await eventually(log, (r) => r.body.data[0]?.attempts.length === 2);
    const [one, two] = [...second.body.data[0].attempts].sort(
      (a: { n: number }, b: { n: number }) => a.n - b.n,
    );
    expect([one.n, two.n]).toEqual([1, 2]);
    expect(two.status_code).toBeNull();
    expect(second.body.data[0].event_id).toBe(first.body.data[0].event_id);

    expect((await listener.stop()).code).toBe(0);
    expect((await server.stop()).code).toBe(0);
  });

  test('a dropped delivery is recorded with status null and chaos dropped; its retry is fresh', async () => {
    const file = join(await tempDir(), 'deliveries.jsonl');
    // seed 5 drops the first of these two deliveries at a share of 0.5 and answers the second
    const listener = await startListen([
      '--secret',
      SECRET,
      '--drop',
      '0.5',
      '--seed',
      '5',
      '--record',
      file,
    ]);
    const eventId = randomUUID();
    await expect(send(listener.url, { eventId })).rejects.toThrow();
    await listener.waitFor(said('verified, dropped \\(no answer\\)'));
    expect((await send(listener.url, { eventId, attempt: 2 })).status).toBe(200);
    await listener.waitFor(said('verified, answered 200', 2));
    expect((await listener.stop()).code).toBe(0);
    const lines = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.verdict, l.status, l.chaos])).toEqual([
      ['ok', null, 'dropped'],
      ['ok', 200, undefined],
    ]);
  });
});

describe('--duplicate', () => {
  test('--duplicate 1: the app behind --forward-to gets each event twice, same bytes and event_id', async () => {
    const app = await startApp(204);
    const listener = await startListen([
      '--secret',
      SECRET,
      '--forward-to',
      app.url,
      '--duplicate',
      '1',
    ]);
    const a = await send(listener.url);
    const b = await send(listener.url);
    expect([a.status, b.status]).toEqual([200, 200]);
    await listener.waitFor(said('verified, answered 200, dup: forwarded twice'));
    await until(
      () => app.received.length >= 4,
      childless,
      () => `four forwards, got ${app.received.length}`,
    );
    expect((await listener.stop()).code).toBe(0);
    expect(app.received.map((r) => r.headers['x-service-delivery'])).toEqual([
      a.eventId,
      a.eventId,
      b.eventId,
      b.eventId,
    ]);
    expect(app.received.map((r) => JSON.parse(r.body.toString()).event_id)).toEqual([
      a.eventId,
      a.eventId,
      b.eventId,
      b.eventId,
    ]);
    expect(app.received[1]?.body.toString()).toBe(a.body);
    expect(app.received[1]?.headers['x-service-signature']).toBe(
      app.received[0]?.headers['x-service-signature'],
    );
  });
});

describe('--reorder', () => {
  /** Three deliveries with rising event_at, sent one after the other; their event ids. */
  async function sendThree(url: string): Promise<string[]> {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const eventId = randomUUID();
      const body = JSON.stringify({
        id: RECORD_ID,
        object: 'job',
        event_type: 'job.stage_changed',
        event_id: eventId,
        event_at: `2026-01-02T12:00:0${n}.000Z`,
      });
      expect((await send(url, { eventId, body })).status).toBe(200);
      ids.push(eventId);
    }
    return ids;
  }

  async function reorderRun(seed: string) {
    const app = await startApp(204);
    const listener = await startListen([
      '--secret',
      SECRET,
      '--forward-to',
      app.url,
      '--reorder',
      '3',
      '--seed',
      seed,
    ]);
    const ids = await sendThree(listener.url);
    for (const n of [1, 2, 3]) {
      await listener.waitFor(said(`verified, answered 200, held #${n}`));
    }
    const flushed = await listener.waitFor(
      new RegExp(`^${TIME} forwarding held (#\\d, #\\d, #\\d) \\(--reorder 3: shuffled\\)$`, 'm'),
    );
    await until(
      () => app.received.length >= 3,
      childless,
      () => 'three forwards',
    );
    expect((await listener.stop()).code).toBe(0);
    const got = app.received.map((r) => ids.indexOf(String(r.headers['x-service-delivery'])) + 1);
    const eventAt = app.received.map((r) => JSON.parse(r.body.toString()).event_at);
    return { printed: flushed[1], got, eventAt };
  }

  test('--reorder 3 holds three deliveries and forwards them out of arrival order, as printed, the same for a seed', async () => {
    const first = await reorderRun('7');
    expect(first.got).not.toEqual([1, 2, 3]);
    expect([...first.got].sort()).toEqual([1, 2, 3]);
    expect(first.printed).toBe(first.got.map((n) => `#${n}`).join(', '));
    // the app sees event_at go backwards: ordering by it is what is under test
    expect([...first.eventAt].sort()).not.toEqual(first.eventAt);
    // the order is the seed's: the same seed repeats it in another run
    expect(first.got).toEqual(seededShuffle(7)([1, 2, 3]));
    expect((await reorderRun('7')).got).toEqual(first.got);
  });

  test('a batch smaller than N is forwarded after a second without deliveries', async () => {
    const app = await startApp(204);
    const listener = await startListen([
      '--secret',
      SECRET,
      '--forward-to',
      app.url,
      '--reorder',
      '5',
    ]);
    await send(listener.url);
    await send(listener.url);
    const started = Date.now();
    await until(
      () => app.received.length >= 2,
      childless,
      () => 'two forwards after the idle second',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    await listener.waitFor(
      new RegExp(`^${TIME} forwarding held (#2, #1) \\(--reorder 5: shuffled\\)$`, 'm'),
    );
    expect((await listener.stop()).code).toBe(0);
  });

  test('stopping forwards what is held before it exits', async () => {
    const app = await startApp(204);
    const listener = await startListen([
      '--secret',
      SECRET,
      '--forward-to',
      app.url,
      '--reorder',
      '10',
    ]);
    const a = await send(listener.url);
    const b = await send(listener.url);
    expect(await listener.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(app.received.map((r) => r.headers['x-service-delivery']).sort()).toEqual(
      [a.eventId, b.eventId].sort(),
    );
  });
});

describe('the signature doctor, through the listener', () => {
  test('a body re-encoded on the way is answered 400; its line and its record say it verifies once re-serialised', async () => {
    const file = join(await tempDir(), 'deliveries.jsonl');
    const listener = await startListen(['--secret', SECRET, '--record', file]);
    const signed = JSON.stringify({ id: RECORD_ID, event_type: 'job.stage_changed', n: 1.5 });
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', SECRET).update(`${t}.${signed}`).digest('hex');
    const pretty = JSON.stringify(JSON.parse(signed), null, 2);
    const res = await send(listener.url, { body: pretty, signature: `t=${t},v1=${v1}` });
    expect(res.status).toBe(400);
    await listener.waitFor(
      said(
        `bad signature, answered 400; ${literal('the body was re-encoded on the way: it verifies once re-serialised as compact JSON')}`,
      ),
    );
    expect((await listener.stop()).code).toBe(0);
    const recorded = JSON.parse(await readFile(file, 'utf8'));
    expect(recorded).toMatchObject({
      verdict: 'bad-signature',
      status: 400,
      body: pretty,
      diagnosis: { kind: 're-encoded' },
    });
  });

  test('after a real rotation the listener warns that the secret is changing and it has 24 hours', async () => {
    const { server, key } = await realSvc();
    const listener = await startListen([
      '--server',
      server.url,
      '--key',
      key,
      '--events',
      'job.created',
    ]);
    const webhook = (await http(`${server.url}/v1/webhooks`, { key })).body.data[0];
    const rotated = await http(`${server.url}/__admin/webhooks/${webhook.id}/rotate_secret`, {
      method: 'POST',
    });
    expect(rotated.status).toBeLessThan(300);
    const job = await http(`${server.url}/v1/jobs`, {
      method: 'POST',
      key,
      body: { name: 'Rotated roof', address: '4 Elm St' },
    });
    const short = `${job.body.id.slice(0, 4)}…${job.body.id.slice(-3)}`;
    await listener.waitFor(
      new RegExp(
        `^${TIME} job\\.created ${short} attempt 1 verified, answered 200; ${literal(
          "secret rotating: another v1 matches none of your secrets; the subscription's secret is being rotated: take the new one within 24 hours",
        )}$`,
        'm',
      ),
    );
    expect((await listener.stop()).code).toBe(0);
    expect((await server.stop()).code).toBe(0);
  });
});

describe('usage', () => {
  test('--help lists the chaos flags and an example', async () => {
    const run = await runSvc(['webhook', 'listen', '--help']);
    expect(run.code).toBe(0);
    for (const flag of ['--drop', '--duplicate', '--reorder', '--seed']) {
      expect(run.stdout).toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
    }
    expect(run.stdout).toContain('--duplicate 0.3 --reorder 4 --drop 0.1 --seed 7');
  });

  const forward = ['--forward-to', 'http://127.0.0.1:9/hooks'];
  test.each([
    ['--drop 1.5', ['--drop', '1.5']],
    ['--drop -0.1', ['--drop', '-0.1']],
    ['--drop abc', ['--drop', 'abc']],
    ['--drop 50%', ['--drop', '50%']],
    ['--drop 1e-1', ['--drop', '1e-1']],
    ['--duplicate 2', [...forward, '--duplicate', '2']],
    ['--duplicate NaN', [...forward, '--duplicate', 'NaN']],
    ['--reorder -1', [...forward, '--reorder', '-1']],
    ['--reorder 1.5', [...forward, '--reorder', '1.5']],
    ['--reorder x', [...forward, '--reorder', 'x']],
    ['--duplicate without --forward-to', ['--duplicate', '0.5']],
    ['--reorder without --forward-to', ['--reorder', '3']],
    ['--seed without a chaos flag', ['--seed', '3']],
    ['--seed -1', ['--drop', '0.5', '--seed', '-1']],
  ])('%s exits 2 with exactly one line on stderr', async (_what, args) => {
    const run = await runSvc(['webhook', 'listen', '--secret', SECRET, ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^[^\n]+\n$/);
    expect(run.stdout).toBe('');
  });

  test.each([
    ['--drop 0', ['--drop', '0']],
    ['--drop .5', ['--drop', '.5']],
    ['--drop 1.0', ['--drop', '1.0']],
    ['--reorder 0', [...forward, '--reorder', '0']],
  ])('%s is accepted', async (_what, args) => {
    const listener = await startListen(['--secret', SECRET, ...args]);
    expect((await listener.stop()).code).toBe(0);
  });
});
