import { issueCode } from '../../src/oauth/consent';
import { GLOBAL } from '../../src/store';
import { leased } from '../../src/store/held';
import { ok } from '../support/expect';
import {
  type Harness,
  harness,
  type Json,
  type Reply,
  type TestWorkspace,
} from '../support/harness';

// The OAuth server's tests: an app registered through the control API, codes issued as the
// consent page issues them (that page is tested on its own), then traded over HTTP.

export const CALLBACK = 'https://app.example/callback';
export const OTHER_CALLBACK = 'https://app.example/other';
export const FORM = 'application/x-www-form-urlencoded';

export interface RegisteredApp {
  client_id: string;
  client_secret: string;
}

export interface Rig {
  h: Harness;
  ws: TestWorkspace;
  app: RegisteredApp;
}

const apps = new Map<string, Harness>();
/** One app per file (building one costs more than a test); every test makes its own workspace. */
function shared(): Harness {
  let h = apps.get('h');
  if (!h) {
    h = harness({ rateLimit: null, allowLocalTargets: true });
    apps.set('h', h);
  }
  return h;
}

export async function register(h: Harness, name = 'Roof Reports'): Promise<RegisteredApp> {
  return ok(h.admin.post('/oauth/apps', { name, redirect_uris: [CALLBACK, OTHER_CALLBACK] }), 201);
}

export async function rig(): Promise<Rig> {
  const h = shared();
  const ws = await h.workspace({ name: 'Acme Roofing' });
  return { h, ws, app: await register(h) };
}

/** A code for the rig's workspace, as the consent page issues it when the person allows. */
export function code(
  r: Rig,
  opts: { scope?: 'read' | 'write'; redirectUri?: string; app?: RegisteredApp } = {},
): Promise<string> {
  // Under the global scope's lease, as the consent form writes it, where several nodes serve.
  return leased(r.h.rt.store, [GLOBAL], () =>
    issueCode(r.h.rt, {
      clientId: (opts.app ?? r.app).client_id,
      redirectUri: opts.redirectUri ?? CALLBACK,
      workspaceId: r.ws.id,
      scope: opts.scope ?? 'write',
    }),
  );
}

/** A form-encoded POST to /v1{path}, as a standard OAuth client sends it. */
export function postForm(
  h: Harness,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return h.anonymous.raw('POST', path, {
    body: new URLSearchParams(fields).toString(),
    headers: { 'Content-Type': FORM, ...headers },
  });
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export const clientFields = (app: RegisteredApp) => ({
  client_id: app.client_id,
  client_secret: app.client_secret,
});

/** Trades a code (form-encoded, credentials in the body): the raw answer. */
export const trade = (r: Rig, theCode: string, extra: Record<string, string> = {}) =>
  postForm(r.h, '/oauth/token', {
    grant_type: 'authorization_code',
    code: theCode,
    redirect_uri: CALLBACK,
    ...clientFields(r.app),
    ...extra,
  });

/** A connected app: a code traded for its tokens. */
export async function connect(r: Rig, scope: 'read' | 'write' = 'write'): Promise<Json> {
  return ok(trade(r, await code(r, { scope })));
}

export const refreshWith = (r: Rig, refreshToken: string, app: RegisteredApp = r.app) =>
  postForm(r.h, '/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    ...clientFields(app),
  });

export const revoke = (r: Rig, token: string, app: RegisteredApp = r.app) =>
  postForm(r.h, '/oauth/revoke', { token, ...clientFields(app) });

export async function advance(h: Harness, seconds: number): Promise<void> {
  await ok(h.admin.post('/clock', { advance_seconds: seconds }));
}

/** The standard OAuth error body with this status and error, and no API envelope. */
export function expectOAuthError(res: Reply, status: number, error: string): void {
  if (res.status !== status || res.body?.error !== error) {
    throw new Error(`expected ${status} ${error}, got ${res.status}: ${res.text}`);
  }
  if (typeof res.body.error_description !== 'string' || Object.keys(res.body).length !== 2) {
    throw new Error(`not the OAuth error body: ${res.text}`);
  }
}
