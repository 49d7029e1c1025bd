// svc webhook listen forwarding to an app, subscribing itself on a server, and its usage errors.
// DESIGN, svc webhook listen.
import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { runSvc } from '../support/spawn';
import {
  childless,
  fakeSvc,
  line,
  READY,
  RECORD_ID,
  SECRET,
  send,
  startApp,
  startListen,
  TIME,
  until,
} from './listen-setup';

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
