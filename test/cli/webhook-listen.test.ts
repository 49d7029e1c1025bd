// svc webhook listen as a receiver: verifying signatures (or not), answering as told, recording.
// spec, Signature verification; DESIGN, svc webhook listen.
import { createHmac, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runSvc, tempDir } from '../support/spawn';
import { line, READY, RECORD_ID, SECRET, send, startApp, startListen, TIME } from './listen-setup';

const ANOTHER_SECRET =
  'signed with another secret: your secret does not match, and neither clock skew nor a re-encoded body explains it';

/** A rejected delivery's line, with the signature doctor's finding after `; ` (issue 19). */
const rejected = (said: string, why?: string) =>
  new RegExp(
    `^${TIME} job\\.stage_changed 7b0c…a11 attempt 1 ${said}, answered 400${why === undefined ? '' : `; ${why.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`}$`,
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
    ['signed with another secret', 'bad signature', { secrets: ['whsec_not_it'] }, ANOTHER_SECRET],
    ['with no signature header', 'missing signature', { signature: null }, undefined],
    [
      'with a malformed signature header',
      'malformed signature',
      { signature: 'sha256=abc' },
      undefined,
    ],
    [
      'signed 400 s ago',
      'stale timestamp',
      // signed when sent (not when the file loads: a slow run loses seconds before this test)
      () => ({ t: Math.floor(Date.now() / 1000) - 400 }),
      // a second may tick between signing and checking
      /clock skew: t is 40[01] s behind this machine's clock, 10[01] s past the 300 s tolerance/,
    ],
    [
      'signed 400 s ahead',
      'stale timestamp',
      () => ({ t: Math.floor(Date.now() / 1000) + 400 }),
      /clock skew: t is (399|400) s ahead of this machine's clock, (99|100) s past the 300 s tolerance/,
    ],
  ] as const)(
    'a delivery %s is answered 400 and printed as %s, with why',
    async (_what, verdict, opts, why) => {
      const listener = await startListen(['--secret', SECRET]);
      const res = await send(listener.url, typeof opts === 'function' ? opts() : opts);
      expect(res.status).toBe(400);
      if (why instanceof RegExp) {
        await listener.waitFor(
          new RegExp(
            `^${TIME} job\\.stage_changed 7b0c…a11 attempt 1 ${verdict}, answered 400; ${why.source}$`,
            'm',
          ),
        );
      } else {
        await listener.waitFor(rejected(verdict, why));
      }
      await listener.stop();
    },
  );

  test('a body changed after signing is bad-signature', async () => {
    const listener = await startListen(['--secret', SECRET]);
    const t = Math.floor(Date.now() / 1000);
    const signed = JSON.stringify({ id: RECORD_ID, event_type: 'job.stage_changed' });
    const v1 = createHmac('sha256', SECRET).update(`${t}.${signed}`).digest('hex');
    const tampered = signed.replace('job.stage_changed', 'job.deleted');
    const res = await send(listener.url, { body: tampered, signature: `t=${t},v1=${v1}` });
    expect(res.status).toBe(400);
    await listener.waitFor(rejected('bad signature', ANOTHER_SECRET));
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
      await listener.waitFor(rejected('bad signature', ANOTHER_SECRET));
      expect(await listener.stop(signal)).toEqual({ code: 0, signal: null });
      expect(listener.stdout()).toMatch(
        /, answered 400; signed with another secret[^\n]*\nsvc webhook listen stopped: 3 deliveries received\n$/,
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
