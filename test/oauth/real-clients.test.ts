import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { AuthorizationCode } from 'simple-oauth2';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hiddenFields } from '../support/forms';
import { cleanup, http, type Server, startServe, tempDir } from '../support/spawn';

// spec, OAuth and Authentication 5, as two OAuth clients people use find them: simple-oauth2
// (reads every answer as JSON, client credentials as HTTP Basic by default) and oauth4webapi
// (strict RFC 6749 / 7009 checks of every answer), against a real `svc serve`. The person's part
// is the consent page's own form, posted as a browser posts it.

const CALLBACK = 'https://app.example/callback';

let server: Server;
let workspaceId: string;
let app: { client_id: string; client_secret: string };

beforeAll(async () => {
  server = await startServe(join(await tempDir(), 'data.json'), ['--no-seed']);
  const ws = await http(`${server.url}/__admin/workspaces`, {
    method: 'POST',
    body: { name: 'Acme Roofing' },
  });
  workspaceId = ws.body.id;
  const registered = await http(`${server.url}/__admin/oauth/apps`, {
    method: 'POST',
    body: { name: 'Roof Reports', redirect_uris: [CALLBACK] },
  });
  expect(registered.status).toBe(201);
  app = registered.body;
}, 30_000);

afterAll(cleanup);

/** The person allows on the consent page: its form posted back, the redirect it answers read. */
async function allow(authorizeUrl: string): Promise<URL> {
  const page = await fetch(authorizeUrl, { signal: AbortSignal.timeout(10_000) });
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const form = new URLSearchParams({
    ...hiddenFields(html, '/oauth/authorize'),
    workspace_id: workspaceId,
    decision: 'allow',
  });
  const res = await fetch(`${server.url}/oauth/authorize`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') ?? '');
}

const ping = (token: string) => http(`${server.url}/v1/ping`, { key: token });

describe('simple-oauth2 5.1', () => {
  const client = () =>
    new AuthorizationCode({
      client: { id: app.client_id, secret: app.client_secret },
      auth: {
        tokenHost: server.url,
        tokenPath: '/v1/oauth/token',
        revokePath: '/v1/oauth/revoke',
        authorizePath: '/oauth/authorize',
      },
    });

  test('runs the whole flow: authorize, token with HTTP Basic, refresh, revokeAll', async () => {
    const c = client();
    const back = await allow(c.authorizeURL({ redirect_uri: CALLBACK, state: 's-1' }));
    expect(back.searchParams.get('state')).toBe('s-1');
    const token = await c.getToken({
      code: back.searchParams.get('code') ?? '',
      redirect_uri: CALLBACK,
    });
    expect(token.token).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'write',
      workspace_id: workspaceId,
      access_token: expect.stringMatching(/^svc_oat_/),
      refresh_token: expect.stringMatching(/^svc_ort_/),
    });
    expect((await ping(String(token.token.access_token))).body.key.access).toBe('write');

    const refreshed = await token.refresh();
    expect(refreshed.token.refresh_token).toBe(token.token.refresh_token);
    expect(refreshed.token.access_token).not.toBe(token.token.access_token);

    // spec, POST /oauth/revoke: a refresh token disconnects the whole connection. revokeAll
    // revokes the access token, then the refresh token: it must read the first answer to go on.
    await refreshed.revokeAll();
    expect((await ping(String(refreshed.token.access_token))).status).toBe(401);
    await expect(refreshed.refresh()).rejects.toThrow(/400/);
  });

  test('a read scope comes back as scope=read and reads only', async () => {
    const c = client();
    const back = await allow(c.authorizeURL({ redirect_uri: CALLBACK, state: 's', scope: 'read' }));
    const token = await c.getToken({
      code: back.searchParams.get('code') ?? '',
      redirect_uri: CALLBACK,
      scope: 'read',
    });
    expect(token.token.scope).toBe('read');
    const write = await http(`${server.url}/v1/contacts`, {
      method: 'POST',
      key: String(token.token.access_token),
      body: { name: 'Ada' },
    });
    expect(write.status).toBe(403);
  });
});

describe('oauth4webapi 3.8', () => {
  const as = (): oauth.AuthorizationServer => ({
    issuer: server.url,
    authorization_endpoint: `${server.url}/oauth/authorize`,
    token_endpoint: `${server.url}/v1/oauth/token`,
    revocation_endpoint: `${server.url}/v1/oauth/revoke`,
  });
  const insecure = { [oauth.allowInsecureRequests]: true }; // svc listens on http://127.0.0.1

  test('runs the whole flow: token, scope, expiry, a call, refresh, revoke', async () => {
    const client: oauth.Client = { client_id: app.client_id };
    const auth = oauth.ClientSecretBasic(app.client_secret);
    const state = oauth.generateRandomState();
    const url = new URL(`${server.url}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: app.client_id,
      redirect_uri: CALLBACK,
      state,
    }).toString();
    const params = oauth.validateAuthResponse(as(), client, await allow(url.href), state);
    const granted = await oauth.processAuthorizationCodeResponse(
      as(),
      client,
      await oauth.authorizationCodeGrantRequest(
        as(),
        client,
        auth,
        params,
        CALLBACK,
        oauth.nopkce,
        insecure,
      ),
    );
    expect(granted).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'write' });

    const called = await oauth.protectedResourceRequest(
      granted.access_token,
      'GET',
      new URL(`${server.url}/v1/ping`),
      undefined,
      undefined,
      insecure,
    );
    expect(called.status).toBe(200);

    const refreshed = await oauth.processRefreshTokenResponse(
      as(),
      client,
      await oauth.refreshTokenGrantRequest(
        as(),
        client,
        auth,
        granted.refresh_token ?? '',
        insecure,
      ),
    );
    expect(refreshed.refresh_token).toBe(granted.refresh_token);

    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as(), client, auth, refreshed.access_token, insecure),
    );
    expect((await ping(refreshed.access_token)).status).toBe(401);
    // The connection keeps going: an access token retires only itself.
    expect((await ping(granted.access_token)).status).toBe(200);
  });
});
