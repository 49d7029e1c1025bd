import { describe, expect, test } from 'vitest';
import { findApp, issueCode } from '../../src/oauth/consent';
import { expectError, ok } from '../support/expect';
import { harness } from '../support/harness';
import { CALLBACK, connect, expectOAuthError, OTHER_CALLBACK, refreshWith, rig } from './setup';

// DESIGN.md, control API: apps registered by the operator; a workspace's connections.

describe('POST /__admin/oauth/apps', () => {
  test('201 with a client_id and a client_secret shown once', async () => {
    const h = harness();
    const app = await ok(
      h.admin.post('/oauth/apps', { name: 'Roof Reports', redirect_uris: [CALLBACK] }),
      201,
    );
    expect(app).toEqual({
      client_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      client_secret: expect.stringMatching(/^svc_ocs_[0-9A-Za-z]{32}$/),
    });
  });

  test('the secret is stored hashed, never as sent', async () => {
    const h = harness();
    const app = await ok(
      h.admin.post('/oauth/apps', { name: 'A', redirect_uris: [CALLBACK] }),
      201,
    );
    const stored = JSON.stringify(h.rt.store.global.get('oauth_apps', app.client_id));
    expect(stored).not.toContain(app.client_secret);
  });

  test.each([
    ['no name', { redirect_uris: [CALLBACK] }, 'name'],
    ['no redirect_uris', { name: 'A' }, 'redirect_uris'],
    ['empty redirect_uris', { name: 'A', redirect_uris: [] }, 'redirect_uris'],
    [
      'a redirect_uri that is no URL',
      { name: 'A', redirect_uris: ['not a url'] },
      'redirect_uris[0]',
    ],
    [
      'a redirect_uri with a fragment',
      { name: 'A', redirect_uris: [`${CALLBACK}#x`] },
      'redirect_uris[0]',
    ],
  ])('%s: 400 invalid_request', async (_, body, field) => {
    const h = harness();
    const res = await h.admin.post('/oauth/apps', body, { invalid: true });
    expectError(res, 400, 'invalid_request', field);
  });
});

describe('GET /__admin/oauth/apps', () => {
  test('lists the apps oldest first, without secrets', async () => {
    const h = harness();
    const a = await ok(h.admin.post('/oauth/apps', { name: 'A', redirect_uris: [CALLBACK] }), 201);
    await ok(
      h.admin.post('/oauth/apps', { name: 'B', redirect_uris: [CALLBACK, OTHER_CALLBACK] }),
      201,
    );
    const res = await h.admin.get('/oauth/apps');
    expect(res.status).toBe(200);
    expect(res.body.data.map((x: { name: string }) => x.name)).toEqual(['A', 'B']);
    expect(res.body.data[0]).toEqual({
      client_id: a.client_id,
      object: 'oauth_app',
      name: 'A',
      redirect_uris: [CALLBACK],
      created_at: expect.any(String),
    });
    expect(res.text).not.toContain(a.client_secret);
    expect(res.text).not.toContain('secret');
  });
});

describe('the consent page’s service (src/oauth/consent.ts)', () => {
  test('findApp answers the registered app, or undefined', async () => {
    const r = await rig();
    expect(findApp(r.h.rt, r.app.client_id)).toEqual({
      client_id: r.app.client_id,
      name: 'Roof Reports',
      redirect_uris: [CALLBACK, OTHER_CALLBACK],
    });
    expect(findApp(r.h.rt, 'f0000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  test('issueCode refuses a redirect_uri the app did not register, and an unknown app', async () => {
    const r = await rig();
    const input = { clientId: r.app.client_id, workspaceId: r.ws.id, scope: 'write' as const };
    expect(() => issueCode(r.h.rt, { ...input, redirectUri: 'https://evil.example/cb' })).toThrow(
      /redirect_uri/,
    );
    expect(() => issueCode(r.h.rt, { ...input, clientId: 'nope', redirectUri: CALLBACK })).toThrow(
      /client_id/,
    );
    expect(issueCode(r.h.rt, { ...input, redirectUri: CALLBACK })).toMatch(/^svc_oac_/);
  });
});

describe('a workspace’s connections', () => {
  test('GET lists them with the app, the scope and whether disconnected', async () => {
    const r = await rig();
    await connect(r, 'read');
    const list = await ok(r.h.admin.get(`/workspaces/${r.ws.id}/connections`));
    expect(list.data).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        object: 'connection',
        workspace_id: r.ws.id,
        client_id: r.app.client_id,
        app_name: 'Roof Reports',
        scope: 'read',
        created_at: expect.any(String),
        disconnected_at: null,
      },
    ]);
    const other = await r.h.workspace();
    expect((await ok(r.h.admin.get(`/workspaces/${other.id}/connections`))).data).toEqual([]);
  });

  test('DELETE stops the app at once: its tokens are refused, it cannot refresh', async () => {
    const r = await rig();
    const t = await connect(r);
    const [conn] = (await ok(r.h.admin.get(`/workspaces/${r.ws.id}/connections`))).data;
    const res = await ok(r.h.admin.delete(`/workspaces/${r.ws.id}/connections/${conn.id}`));
    expect(res.disconnected_at).toEqual(expect.any(String));
    expectError(await r.h.as(t.access_token).get('/ping'), 401, 'unauthorized');
    expectOAuthError(await refreshWith(r, t.refresh_token), 400, 'invalid_grant');
  });

  test('DELETE of an unknown connection, or one of another workspace: 404', async () => {
    const r = await rig();
    await connect(r);
    const [conn] = (await ok(r.h.admin.get(`/workspaces/${r.ws.id}/connections`))).data;
    const other = await r.h.workspace();
    expectError(
      await r.h.admin.delete(`/workspaces/${other.id}/connections/${conn.id}`),
      404,
      'not_found',
    );
    expectError(
      await r.h.admin.delete(
        `/workspaces/${r.ws.id}/connections/f0000000-0000-4000-8000-000000000000`,
      ),
      404,
      'not_found',
    );
  });

  test('an unknown workspace: 404', async () => {
    const h = harness();
    const id = 'f0000000-0000-4000-8000-000000000000';
    expectError(await h.admin.get(`/workspaces/${id}/connections`), 404, 'not_found');
  });
});

describe('the OpenAPI document', () => {
  test('declares the OAuth2 authorization-code flow with its scopes, at absolute URLs', async () => {
    const h = harness();
    const res = await h.app.request('http://localhost/v1/openapi.json');
    const doc = (await res.json()) as {
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: 'http://localhost/oauth/authorize',
          tokenUrl: 'http://localhost/v1/oauth/token',
          scopes: { read: expect.any(String), write: expect.any(String) },
        },
      },
    });
    const token = doc.paths['/oauth/token']?.post ?? {};
    expect(token.security).toEqual([]);
    expect(Object.keys((token.requestBody as { content: object }).content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    expect(JSON.stringify(token.responses)).toContain('#/components/schemas/OAuthError');
    expect(doc.paths['/oauth/revoke']?.post?.security).toEqual([]);
    expect(doc.paths['/contacts']?.post?.security).toContainEqual({ oauth2: ['write'] });
    expect(doc.paths['/webhooks']?.post?.security).toBeUndefined();
    // spec, Endpoints: "On POST, PATCH and DELETE the optional header Idempotency-Key applies".
    const keyed = [{ $ref: '#/components/parameters/IdempotencyKey' }];
    expect(token.parameters).toEqual(keyed);
    expect(doc.paths['/oauth/revoke']?.post?.parameters).toEqual(keyed);
    // RFC 7009 §2.2: the 200 of a revocation is a JSON body, an empty object.
    const revoked = doc.paths['/oauth/revoke']?.post?.responses as Record<string, unknown>;
    expect(JSON.stringify(revoked['200'])).toContain('#/components/schemas/OAuthRevoked');
    // spec, Limits: a replay carries Idempotent-Replayed: true; RFC 6749 §5.1: never cached.
    const answers = token.responses as Record<string, { headers?: Record<string, unknown> }>;
    for (const status of ['200', '400', '401', '409']) {
      expect(Object.keys(answers[status]?.headers ?? {}), status).toEqual(
        expect.arrayContaining(['Idempotent-Replayed', 'Cache-Control', 'Pragma']),
      );
    }
    expect(Object.keys(answers['401']?.headers ?? {})).toContain('WWW-Authenticate');
  });
});
