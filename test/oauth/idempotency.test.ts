import { describe, expect, test } from 'vitest';
import { ok } from '../support/expect';
import type { Reply } from '../support/harness';
import {
  advance,
  basic,
  CALLBACK,
  clientFields,
  code,
  connect,
  expectOAuthError,
  postForm,
  type Rig,
  register,
  rig,
} from './setup';

// spec, Endpoints: "On POST, PATCH and DELETE the optional header Idempotency-Key applies"; Errors
// rule 1: dropped connections are worth retrying with an Idempotency-Key on writes; Limits: a
// replay returns the first answer with Idempotent-Replayed: true, remembered 24 hours. The token
// and revoke endpoints are POSTs like any other (decisions.md, OAuth: keys per app, the answer
// kept sealed).

const keyed = (key: string) => ({ 'Idempotency-Key': key });

const tradeKeyed = (r: Rig, theCode: string, key: string, extra: Record<string, string> = {}) =>
  postForm(
    r.h,
    '/oauth/token',
    {
      grant_type: 'authorization_code',
      code: theCode,
      redirect_uri: CALLBACK,
      ...clientFields(r.app),
      ...extra,
    },
    keyed(key),
  );

const refreshKeyed = (r: Rig, refreshToken: string, key: string) =>
  postForm(
    r.h,
    '/oauth/token',
    { grant_type: 'refresh_token', refresh_token: refreshToken, ...clientFields(r.app) },
    keyed(key),
  );

const connections = async (r: Rig) =>
  (await ok(r.h.admin.get(`/workspaces/${r.ws.id}/connections`))).data as {
    disconnected_at: string | null;
  }[];

function expectReplayOf(first: Reply, again: Reply): void {
  expect(again.status, again.text).toBe(first.status);
  expect(again.text).toBe(first.text);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.headers.get('cache-control')).toBe('no-store');
  expect(first.headers.get('idempotent-replayed')).toBeNull();
}

describe('Idempotency-Key on POST /oauth/token', () => {
  test('a code exchange retried with its key answers the first tokens again, and the connection stays', async () => {
    const r = await rig();
    const c = await code(r);
    const first = await tradeKeyed(r, c, 'exchange-1');
    expect(first.status, first.text).toBe(200);
    const again = await tradeKeyed(r, c, 'exchange-1');
    expectReplayOf(first, again);
    expect((await r.h.as(first.body.access_token).get('/ping')).status).toBe(200);
    expect(await connections(r)).toEqual([expect.objectContaining({ disconnected_at: null })]);
  });

  test('the retry is the same request sent as JSON instead of form-encoded: replayed', async () => {
    const r = await rig();
    const c = await code(r);
    const first = await tradeKeyed(r, c, 'k');
    const again = await r.h.anonymous.raw('POST', '/oauth/token', {
      body: JSON.stringify({
        client_secret: r.app.client_secret,
        client_id: r.app.client_id,
        redirect_uri: CALLBACK,
        code: c,
        grant_type: 'authorization_code',
      }),
      headers: { 'Content-Type': 'application/json', ...keyed('k') },
    });
    expectReplayOf(first, again);
  });

  test('the retry sends the client as HTTP Basic instead of in the body: the same request, replayed', async () => {
    const r = await rig();
    const c = await code(r);
    const first = await tradeKeyed(r, c, 'k');
    const again = await postForm(
      r.h,
      '/oauth/token',
      { grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK },
      { ...keyed('k'), Authorization: basic(r.app.client_id, r.app.client_secret) },
    );
    expectReplayOf(first, again);
  });

  test('without a key the retry spends the code twice: invalid_grant, and the connection stops', async () => {
    const r = await rig();
    const c = await code(r);
    const first = await ok(tradeKeyed(r, c, 'one'));
    expectOAuthError(await tradeKeyed(r, c, 'two'), 400, 'invalid_grant');
    expect((await r.h.as(first.access_token).get('/ping')).status).toBe(401);
  });

  test('an invalid_grant answer is remembered and replayed too', async () => {
    const r = await rig();
    const first = await tradeKeyed(r, 'svc_oac_unknown', 'bad');
    expectOAuthError(first, 400, 'invalid_grant');
    expectReplayOf(first, await tradeKeyed(r, 'svc_oac_unknown', 'bad'));
  });

  test('a refresh retried with its key answers the same access token', async () => {
    const r = await rig();
    const t = await connect(r);
    const first = await refreshKeyed(r, t.refresh_token, 'refresh-1');
    expect(first.status, first.text).toBe(200);
    const again = await refreshKeyed(r, t.refresh_token, 'refresh-1');
    expectReplayOf(first, again);
    const fresh = await ok(refreshKeyed(r, t.refresh_token, 'refresh-2'));
    expect(fresh.access_token).not.toBe(first.body.access_token);
  });

  test('a key is remembered 24 hours: a retry after that runs again', async () => {
    const r = await rig();
    const t = await connect(r);
    const first = await ok(refreshKeyed(r, t.refresh_token, 'day'));
    await advance(r.h, 24 * 3600 - 1);
    expect((await ok(refreshKeyed(r, t.refresh_token, 'day'))).access_token).toBe(
      first.access_token,
    );
    await advance(r.h, 2);
    const later = await refreshKeyed(r, t.refresh_token, 'day');
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.access_token).not.toBe(first.access_token);
  });

  test('the same key with another request: 409 conflict in the OAuth body, and nothing runs', async () => {
    const r = await rig();
    const t = await connect(r);
    await ok(refreshKeyed(r, t.refresh_token, 'shared'));
    const c = await code(r);
    const res = await tradeKeyed(r, c, 'shared');
    expectOAuthError(res, 409, 'conflict');
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The code was not spent: it still trades.
    expect((await tradeKeyed(r, c, 'other')).status).toBe(200);
  });

  test("keys are each app's own: another app's same key is a request of its own", async () => {
    const r = await rig();
    const other = await register(r.h, 'Other app');
    const mine = await ok(tradeKeyed(r, await code(r), 'k'));
    const theirs = await postForm(
      r.h,
      '/oauth/token',
      {
        grant_type: 'authorization_code',
        code: await code(r, { app: other }),
        redirect_uri: CALLBACK,
        ...clientFields(other),
      },
      keyed('k'),
    );
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.access_token).not.toBe(mine.access_token);
  });

  test('a refused client is not remembered: the same key with the right secret runs', async () => {
    const r = await rig();
    const c = await code(r);
    const wrong = await tradeKeyed(r, c, 'k', { client_secret: 'svc_ocs_wrong' });
    expectOAuthError(wrong, 401, 'invalid_client');
    const right = await tradeKeyed(r, c, 'k');
    expect(right.status, right.text).toBe(200);
    expect(right.headers.get('idempotent-replayed')).toBeNull();
  });

  test.each([
    ['empty', ''],
    ['over 255 characters', 'k'.repeat(256)],
  ])(
    'an Idempotency-Key %s is 400 invalid_request in the OAuth body, and the code is kept',
    async (_, key) => {
      const r = await rig();
      const c = await code(r);
      expectOAuthError(await tradeKeyed(r, c, key), 400, 'invalid_request');
      expect((await tradeKeyed(r, c, 'k'.repeat(255))).status).toBe(200);
    },
  );

  test('two exchanges with one key at once: one connection, the other answer a replay or 409', async () => {
    const r = await rig();
    const c = await code(r);
    const answers = await Promise.all([tradeKeyed(r, c, 'race'), tradeKeyed(r, c, 'race')]);
    const statuses = answers.map((a) => a.status).sort();
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    expect(await connections(r)).toEqual([expect.objectContaining({ disconnected_at: null })]);
  });

  test('the data file never holds the tokens of a kept answer', async () => {
    const r = await rig();
    const c = await code(r);
    const t = await ok(tradeKeyed(r, c, 'sealed'));
    const kept = JSON.stringify([...r.h.rt.store.global.values('idempotency_keys')]);
    const snapshot = (await r.h.admin.get('/snapshot')).text;
    for (const text of [kept, snapshot]) {
      expect(text).not.toContain(t.access_token);
      expect(text).not.toContain(t.refresh_token);
    }
    // Yet the replay, opened with the app's own secret and the key, gives them back.
    expect(await ok(tradeKeyed(r, c, 'sealed'))).toEqual(t);
  });
});

describe('Idempotency-Key on POST /oauth/revoke', () => {
  test('a revocation retried with its key is replayed: 200 {}', async () => {
    const r = await rig();
    const t = await connect(r);
    const send = () =>
      postForm(
        r.h,
        '/oauth/revoke',
        { token: t.refresh_token, ...clientFields(r.app) },
        keyed('revoke-1'),
      );
    const first = await send();
    expect(first.status).toBe(200);
    expect(first.body).toEqual({});
    expectReplayOf(first, await send());
    expect((await r.h.as(t.access_token).get('/ping')).status).toBe(401);
  });
});
