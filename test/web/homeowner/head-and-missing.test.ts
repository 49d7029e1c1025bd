// A HEAD of a homeowner's page (a link preview, a prefetch) opens nothing, so it counts no view;
// a homeowner's 404 shows no svc navigation.
import { describe, expect, test } from 'vitest';
import { money, ok, open, path, sentEstimate, UNKNOWN } from './setup';

describe("the homeowner's pages", () => {
  test('a HEAD of an estimate’s view_url counts no view; a GET does', async () => {
    const m = await money();
    const e = await sentEstimate(m, { line_items: [{ name: 'Tear-off', unit_price: 1200 }] });
    const head = await m.h.request(path(e.view_url), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await ok(m.ws.api.get(`/estimates/${e.id}`))).view_count).toBe(0);
    await open(m.h, path(e.view_url));
    expect((await ok(m.ws.api.get(`/estimates/${e.id}`))).view_count).toBe(1);
  });

  test.each(['/portal/nope', `/view/estimates/${UNKNOWN}`, `/pay/${UNKNOWN}`])(
    '%s is a 404 page without the svc header or a link to the workspaces',
    async (address) => {
      const m = await money();
      const page = await open(m.h, address);
      expect(page.status).toBe(404);
      expect(page.html).not.toContain('href="/inspector"');
      expect(page.html).not.toContain('All workspaces');
    },
  );
});
