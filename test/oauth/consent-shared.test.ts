import { describe, expect, test } from 'vitest';
import { ok } from '../support/expect';
import { hiddenFields } from '../support/forms';
import { type Harness, harness } from '../support/harness';

// Issue 37: on a shared svc (started with an admin token) the consent page stays open, but lists
// no workspace to a person who has not signed in: they connect their own workspace by giving its
// control token, and no other.

const TOKEN = 'team-secret-admin-token';
const CALLBACK = 'https://client.example/cb';
const admin = { headers: { Authorization: `Bearer ${TOKEN}` } };

async function shared() {
  const h = harness({ rateLimit: null, adminToken: TOKEN });
  const app = await ok(
    h.admin.post('/oauth/apps', { name: 'Roof Reports', redirect_uris: [CALLBACK] }, admin),
    201,
  );
  const mine = await ok(h.admin.post('/workspaces', { name: 'Mine' }, admin), 201);
  const theirs = await ok(h.admin.post('/workspaces', { name: 'Theirs' }, admin), 201);
  return { h, app, mine, theirs };
}

async function consent(h: Harness, clientId: string) {
  const q = new URLSearchParams({
    client_id: clientId,
    redirect_uri: CALLBACK,
    response_type: 'code',
    state: 'st1',
    scope: 'read',
  });
  const res = await h.app.request(`/oauth/authorize?${q}`);
  return { status: res.status, html: await res.text() };
}

async function allow(h: Harness, html: string, extra: Record<string, string>) {
  return h.app.request('/oauth/authorize', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...hiddenFields(html), decision: 'allow', ...extra }).toString(),
  });
}

describe('the consent page on a shared svc', () => {
  test('opens without signing in, and names no workspace', async () => {
    const { h, app, mine, theirs } = await shared();
    const page = await consent(h, app.client_id);
    expect(page.status).toBe(200);
    expect(page.html).toContain('name="control_token"');
    for (const ws of [mine, theirs]) {
      expect(page.html).not.toContain(ws.id);
    }
    expect(page.html).not.toContain('Theirs');
  });

  test('connects the workspace whose control token is given, and that one only', async () => {
    const { h, app, mine, theirs } = await shared();
    const page = await consent(h, app.client_id);
    const res = await allow(h, page.html, {
      control_token: mine.control_token,
      workspace_id: theirs.id,
    });
    expect(res.status).toBe(302);
    const code = new URL(res.headers.get('location') ?? '').searchParams.get('code');
    expect(code).toMatch(/^svc_oac_/);
    const tokens = await ok(
      h.anonymous.raw('POST', '/oauth/token', {
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: code as string,
          redirect_uri: CALLBACK,
          client_id: app.client_id,
          client_secret: app.client_secret,
        }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        invalid: false,
      }),
    );
    expect(tokens.workspace_id).toBe(mine.id);
  });

  test('without a control token, or with a wrong one, allows nothing', async () => {
    const { h, app, theirs } = await shared();
    const tries: Record<string, string>[] = [
      { workspace_id: theirs.id },
      { control_token: 'svc_ctl_guess' },
    ];
    for (const extra of tries) {
      const page = await consent(h, app.client_id);
      const res = await allow(h, page.html, extra);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });
});
