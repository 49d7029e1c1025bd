import { describe, expect, test } from 'vitest';
import { CALLBACK, code, register, trade } from '../../oauth/setup';
import { type Harness, harness } from '../../support/harness';
import {
  ESCAPED,
  expectRefused,
  linksResolve,
  noticeOf,
  open,
  openOk,
  SCRIPT_NAME,
  shownOf,
  submit,
  tokenFor,
} from './support';

// The inspector's workspace settings: each form one of the control API's services.

const h: Harness = harness({ rateLimit: null });
const count = () => [...h.rt.store.global.values('workspaces')].length;

describe('/inspector', () => {
  test('lists the workspaces with the policy header, every name escaped, every link answering', async () => {
    const ws = await h.workspace({ name: SCRIPT_NAME });
    const page = await openOk(h, '/inspector');
    expect(page.html).toContain(ESCAPED);
    expect(page.html).not.toContain(SCRIPT_NAME);
    expect(page.html).toContain(`/inspector/workspaces/${ws.id}`);
    await linksResolve(h, page);
  });

  test('creating a workspace shows its two keys once, and they work', async () => {
    const before = count();
    const landed = await submit(h, '/inspector', '/inspector/workspaces', {
      name: 'Made here',
      profile: 'small',
      seed: '7',
    });
    expect(count()).toBe(before + 1);
    expect(landed.location).toMatch(/^\/inspector\/workspaces\/[0-9a-f-]{36}\?flash=/);
    expect(noticeOf(landed.html)).toEqual({ kind: 'ok', text: 'Workspace Made here created.' });
    const keys = shownOf(landed.html);
    expect(keys['Write key']).toMatch(/^svc_live_/);
    const jobs = await h.as(keys['Write key'] as string).get('/jobs');
    expect(jobs.status).toBe(200);
    expect(jobs.body.data.length).toBeGreaterThan(0); // the small profile, seeded
    const denied = await h
      .as(keys['Read-only key'] as string)
      .post('/jobs', { name: 'x', address: '1 Main St' });
    expect(denied.status).toBe(403);
    // Shown once: the same address again shows no key.
    const again = await openOk(h, landed.location);
    expect(shownOf(again.html)).toEqual({});
    expect(again.html).not.toContain(keys['Write key']);
  });

  test('a seed that is no number is refused by the control API rule, and nothing is made', async () => {
    const before = count();
    const landed = await submit(h, '/inspector', '/inspector/workspaces', { seed: 'abc' });
    expect(noticeOf(landed.html)?.kind).toBe('bad');
    expect(noticeOf(landed.html)?.text).toContain('(seed)');
    expect(landed.location).toMatch(/^\/inspector\?flash=/);
    expect(count()).toBe(before);
  });

  test('a create post without its token, or with another form’s, is refused and makes nothing', async () => {
    const before = count();
    const page = await openOk(h, '/inspector');
    await expectRefused(
      h,
      '/inspector/workspaces',
      { name: 'forged' },
      tokenFor(page.html, '/inspector/oauth-apps'),
    );
    expect(count()).toBe(before);
  });

  test('registering an OAuth app shows its secret once; a bad redirect URI is refused', async () => {
    const landed = await submit(h, '/inspector', '/inspector/oauth-apps', {
      name: 'Roof <b>Reports</b>',
      redirect_uris: `${CALLBACK}\r\nhttps://app.example/two\r\n`,
    });
    expect(noticeOf(landed.html)?.kind).toBe('ok');
    const shown = shownOf(landed.html);
    expect(shown.client_secret).toBeDefined();
    expect(landed.html).toContain('Roof &lt;b&gt;Reports&lt;/b&gt;');
    const apps = await h.admin.get('/oauth/apps');
    const app = apps.body.data.find((a: { client_id: string }) => a.client_id === shown.client_id);
    expect(app.redirect_uris).toEqual([CALLBACK, 'https://app.example/two']);

    const bad = await submit(h, '/inspector', '/inspector/oauth-apps', {
      name: 'Bad',
      redirect_uris: 'ftp://nowhere',
    });
    expect(noticeOf(bad.html)?.kind).toBe('bad');
    expect(noticeOf(bad.html)?.text).toContain('redirect_uris[0]');
  });
});

describe('/inspector/workspaces/{id}', () => {
  test('shows the workspace, its keys and links that answer; an unknown one is a 404 page', async () => {
    const ws = await h.workspace({ name: 'Keys here' });
    const page = await openOk(h, `/inspector/workspaces/${ws.id}`);
    expect(page.html).toContain('Keys here');
    expect(page.html).toContain(`/inspector/keys/${ws.keys.write.id}/revoke`);
    await linksResolve(h, page);
    const missing = await open(h, '/inspector/workspaces/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
  });

  test('a new read key is shown once and reads; revoking it makes the API refuse it', async () => {
    const ws = await h.workspace();
    const path = `/inspector/workspaces/${ws.id}`;
    const made = await submit(h, path, `${path}/keys`, { name: 'Report bot', access: 'read' });
    const key = shownOf(made.html)['Key (read)'] as string;
    expect((await h.as(key).get('/jobs')).status).toBe(200);
    const listed = await h.admin.get(`/workspaces/${ws.id}`);
    const record = listed.body.keys.find((k: { name: string }) => k.name === 'Report bot');
    expect(record.access).toBe('read');

    const revoked = await submit(h, path, `/inspector/keys/${record.id}/revoke`);
    expect(noticeOf(revoked.html)?.text).toContain('revoked');
    expect((await h.as(key).get('/jobs')).status).toBe(401);
  });

  test('a key with an access that is neither write nor read is refused, naming the field', async () => {
    const ws = await h.workspace();
    const path = `/inspector/workspaces/${ws.id}`;
    const landed = await submit(h, path, `${path}/keys`, { access: 'admin' });
    expect(noticeOf(landed.html)).toMatchObject({ kind: 'bad' });
    expect(noticeOf(landed.html)?.text).toContain('(access)');
    expect((await h.admin.get(`/workspaces/${ws.id}`)).body.keys).toHaveLength(2);
  });

  test('revoking needs the token made for that key: another key’s is refused', async () => {
    const ws = await h.workspace();
    const page = await openOk(h, `/inspector/workspaces/${ws.id}`);
    await expectRefused(
      h,
      `/inspector/keys/${ws.keys.write.id}/revoke`,
      {},
      tokenFor(page.html, `/inspector/keys/${ws.keys.read.id}/revoke`),
    );
    expect((await ws.api.get('/jobs')).status).toBe(200);
  });

  test('turning the subscription off makes the API answer 402; on again, 200', async () => {
    const ws = await h.workspace();
    const path = `/inspector/workspaces/${ws.id}`;
    const off = await submit(h, path, `${path}/subscription/off`);
    expect(noticeOf(off.html)?.text).toBe('Subscription turned off.');
    const refused = await ws.api.get('/jobs');
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('plan_required');
    await submit(h, path, `${path}/subscription/on`);
    expect((await ws.api.get('/jobs')).status).toBe(200);
  });

  test('the subscription form’s token is bound to the way it turns: off’s cannot turn it on', async () => {
    const ws = await h.workspace();
    const path = `/inspector/workspaces/${ws.id}`;
    const page = await openOk(h, path);
    await expectRefused(
      h,
      `${path}/subscription/on`,
      {},
      tokenFor(page.html, `${path}/subscription/off`),
    );
    expect((await h.admin.get(`/workspaces/${ws.id}`)).body.subscription_active).toBe(true);
  });

  test('a connected app is listed and disconnecting it stops its token', async () => {
    const ws = await h.workspace();
    const app = await register(h, 'Connected <i>app</i>');
    const tokens = await trade({ h, ws, app }, await code({ h, ws, app }, { scope: 'write' }));
    expect(tokens.status).toBe(200);
    const access = tokens.body.access_token as string;
    expect((await h.as(access).get('/jobs')).status).toBe(200);
    const path = `/inspector/workspaces/${ws.id}`;
    const page = await openOk(h, path);
    expect(page.html).toContain('Connected &lt;i&gt;app&lt;/i&gt;');
    const conn = (await h.admin.get(`/workspaces/${ws.id}/connections`)).body.data[0];
    const landed = await submit(h, path, `${path}/connections/${conn.id}/disconnect`);
    expect(noticeOf(landed.html)?.text).toContain('disconnected');
    expect((await h.as(access).get('/jobs')).status).toBe(401);
  });
});
