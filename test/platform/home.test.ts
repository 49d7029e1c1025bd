import { expect, test } from 'vitest';
import { harness } from '../support/harness';
import { expectPageHeaders, linksAnswer, linksOf, page } from '../web/pages/pages';

// The server root the `svc listening on` line names answers a page, and every link on it answers.

test('the server root is a page naming the base URL, the documents and the workspaces; its links answer', async () => {
  const h = harness({ rateLimit: null });
  const ws = await h.workspace({ profile: 'empty', name: 'Roofs <&> "Co"' });
  const p = await page(h, '/');
  expect(p.status).toBe(200);
  expectPageHeaders(p);
  expect(p.main).toContain('<code>http://localhost/v1</code>');
  expect(p.main).toContain(`>Roofs &lt;&amp;&gt; &quot;Co&quot;</a>`);
  expect(p.main).toContain(`<code>${ws.id}</code>`);
  expect(linksOf(p)).toEqual([
    '/v1/openapi.json',
    '/__admin/openapi.json',
    '/docs/errors',
    `/workspaces/${ws.id}`,
  ]);
  expect(await linksAnswer(h, p)).toBe(4);
});

test('the dashboard lists each workspace with its subscription and its record counts', async () => {
  const h = harness({ rateLimit: null });
  const on = await h.workspace({ profile: 'small', name: 'Small Roofing' });
  const off = await h.workspace({ profile: 'empty', name: 'Lapsed Roofing' });
  await h.admin.patch(`/workspaces/${off.id}`, { subscription_active: false });
  const jobs = (await on.api.get('/jobs', { query: { limit: 100, archived: 'any' } })).body.data;
  const p = await page(h, '/');
  const row = (id: string) =>
    new RegExp(`<tr><td><a href="/workspaces/${id}">[\\s\\S]*?</tr>`).exec(p.main)?.[0] ?? '';
  expect(row(on.id)).toContain('badge ok">on<');
  expect(row(on.id)).toContain(`<td class="money">${jobs.length}</td>`);
  expect(row(off.id)).toContain('badge bad">off<');
  expect(row(off.id)).toContain('<td class="money">0</td>');
});

test('with no workspace the dashboard says how to make one', async () => {
  const h = harness({ rateLimit: null });
  const p = await page(h, '/');
  expect(p.status).toBe(200);
  expect(p.main).toContain('<code>POST /__admin/workspaces</code>');
});
