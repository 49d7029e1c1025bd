import { afterEach, describe, expect, test } from 'vitest';
import { apiBase, subscribe, unsubscribe } from '../../src/clients/listen/subscriber';
import { type FakeSvc, startFakeSvc } from './fake-svc';

const TARGET = 'http://127.0.0.1:4020/';
let svc: FakeSvc | undefined;

afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

async function fake(): Promise<{ svc: FakeSvc; api: { base: string; key: string } }> {
  svc = await startFakeSvc();
  return { svc, api: { base: apiBase(svc.url), key: svc.key } };
}

describe('apiBase', () => {
  test.each([
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010/v1'],
    ['http://127.0.0.1:4010/', 'http://127.0.0.1:4010/v1'],
    ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1'],
    ['http://127.0.0.1:4010/v1/', 'http://127.0.0.1:4010/v1'],
  ])('%s gives %s', (given, base) => {
    expect(apiBase(given)).toBe(base);
  });
});

describe('subscribe', () => {
  test('one event: POST {event, target_url} with the bearer key; 201 gives the secret', async () => {
    const { svc, api } = await fake();
    const made = await subscribe(api, ['job.created'], TARGET);
    expect(made.secret).toMatch(/^whsec_/);
    expect(made.webhooks).toEqual([{ id: expect.any(String), event: 'job.created' }]);
    expect(made.replaced).toEqual([]);
    expect(svc.calls).toEqual([
      {
        method: 'POST',
        path: '/v1/webhooks',
        authorization: `Bearer ${svc.key}`,
        body: { event: 'job.created', target_url: TARGET, description: 'svc webhook listen' },
      },
    ]);
  });

  test('* is sent as {event: "*"}', async () => {
    const { svc, api } = await fake();
    await subscribe(api, ['*'], TARGET);
    expect(svc.calls[0]?.body).toMatchObject({ event: '*' });
  });

  test('several events: POST {events}; the list answer shares one secret', async () => {
    const { svc, api } = await fake();
    const made = await subscribe(api, ['job.created', 'job.deleted'], TARGET);
    expect(svc.calls[0]?.body).toMatchObject({ events: ['job.created', 'job.deleted'] });
    expect(made.webhooks.map((w) => w.event)).toEqual(['job.created', 'job.deleted']);
    for (const w of svc.webhooks.values()) {
      expect(w.secret).toBe(made.secret);
    }
  });

  test('200 (an identical subscription left behind): it is deleted and made again with a fresh secret', async () => {
    const { svc, api } = await fake();
    const first = await subscribe(api, ['job.created'], TARGET);
    const second = await subscribe(api, ['job.created'], TARGET);
    expect(second.replaced).toEqual([first.webhooks[0]?.id]);
    expect(second.secret).not.toBe(first.secret);
    expect([...svc.webhooks.keys()]).toEqual([second.webhooks[0]?.id]);
    expect(svc.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v1/webhooks',
      'POST /v1/webhooks',
      `DELETE /v1/webhooks/${first.webhooks[0]?.id}`,
      'POST /v1/webhooks',
    ]);
  });

  test('an error answer names the status and code; a refused target_url hints at --allow-local-targets', async () => {
    const { svc, api } = await fake();
    svc.failNextPost(400, 'invalid_request', 'target_url');
    await expect(subscribe(api, ['job.created'], TARGET)).rejects.toThrow(
      /answered 400 invalid_request: refused.*--allow-local-targets/,
    );
    await expect(subscribe({ ...api, key: 'svc_live_wrong' }, ['*'], TARGET)).rejects.toThrow(
      /answered 401 unauthorized/,
    );
  });

  test('an unreachable server is an error naming the URL', async () => {
    const { svc, api } = await fake();
    await svc.close();
    await expect(subscribe(api, ['*'], TARGET)).rejects.toThrow(`POST ${api.base}/webhooks failed`);
  });
});

describe('unsubscribe', () => {
  test('DELETE /v1/webhooks/{id}; one already gone (404) counts as deleted', async () => {
    const { svc, api } = await fake();
    const made = await subscribe(api, ['job.created'], TARGET);
    const id = made.webhooks[0]?.id ?? '';
    await unsubscribe(api, id);
    expect(svc.webhooks.size).toBe(0);
    await expect(unsubscribe(api, id)).resolves.toBeUndefined();
    await expect(unsubscribe({ ...api, key: 'svc_live_wrong' }, id)).rejects.toThrow(/401/);
  });
});
