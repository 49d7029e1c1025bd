import { describe, expect, test } from 'vitest';
import { harness } from '../support/harness';

// An address the web app does not have, opened by a browser, is a page; a program still gets the
// API's envelope, and /v1 and /__admin always answer JSON.

const asBrowser = { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } };

describe('addresses the web app does not have', () => {
  const h = harness();

  test('a browser gets an HTML 404 page; a program gets the JSON envelope', async () => {
    const page = await h.request('/nonexistent', asBrowser);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('<h1>Not found</h1>');
    const json = await h.request('/nonexistent');
    expect(json.status).toBe(404);
    expect(((await json.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  test('a form target opened with GET is an HTML 405 page with Allow', async () => {
    const page = await h.request('/inspector/faults/clear', asBrowser);
    expect(page.status).toBe(405);
    expect(page.headers.get('allow')).toBe('POST');
    expect(await page.text()).toContain('Not allowed');
  });

  test('/v1 and /__admin answer JSON even to a browser', async () => {
    const ws = await h.workspace();
    const headers = { ...asBrowser.headers, Authorization: `Bearer ${ws.keys.write.key}` };
    for (const path of ['/v1/nope', '/__admin/nope']) {
      const res = await h.request(path, { headers });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('application/json');
    }
  });
});

describe('the edges a second outside review found', () => {
  const h = harness();

  test('/inspector/ is no address: a 404 page, not a 405 that allows what it refuses', async () => {
    const page = await h.request('/inspector/', asBrowser);
    expect(page.status).toBe(404);
    const post = await h.request('/inspector', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  test('the consent page names an empty icon and its policy lets it load', async () => {
    const res = await h.request('/oauth/authorize');
    const html = await res.text();
    expect(html).toContain('<link rel="icon" href="data:,">');
    expect(res.headers.get('content-security-policy')).toContain('img-src data:');
  });
});
