import { expect, test } from 'vitest';
import { harness } from '../support/harness';

// The server root the `svc listening on` line names answers a page, and every link on it answers.

test('the server root is a page naming the base URL, the documents and the workspaces; its links answer', async () => {
  const h = harness({ rateLimit: null });
  const ws = await h.workspace({ profile: 'empty', name: 'Roofs <&> "Co"' });
  const res = await h.app.request('http://localhost/');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const page = await res.text();
  expect(page).toContain('<code>http://localhost/v1</code>');
  expect(page).toContain(`Roofs &lt;&amp;&gt; &quot;Co&quot; <code>${ws.id}</code>`);
  const links = [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1] as string);
  expect(links).toEqual(['/v1/openapi.json', '/__admin/openapi.json', '/docs/errors']);
  for (const link of links) {
    expect((await h.app.request(`http://localhost${link}`)).status, link).toBe(200);
  }
});
