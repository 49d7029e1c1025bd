import { describe, expect, test } from 'vitest';
import { harness } from '../../support/harness';
import { addressesOf, allOk, statuses } from './links';

const CSP = /script-src 'self'/;

async function page(path: string) {
  const h = harness();
  const res = await h.request(path);
  return { h, res, html: await res.text() };
}

describe('/docs: the API reference', () => {
  test('/docs draws /v1/openapi.json with swagger-ui served by svc itself, under a CSP', async () => {
    const { res, html } = await page('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(CSP);
    expect(html).toContain('<div id="swagger-ui" data-openapi-url="/v1/openapi.json">');
    expect(html).toContain('<script src="/docs/assets/swagger-ui-bundle.js" defer="">');
    expect(html).toContain('<script src="/_app/docs-reference.js" defer="">');
    expect(html).toContain('<link rel="stylesheet" href="/docs/assets/swagger-ui.css"/>');
    // no inline script or style, nothing from another host
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
  });

  test('the /docs index links to the reference, the errors and the signatures pages', async () => {
    const { html } = await page('/docs');
    const links = addressesOf(html);
    for (const path of ['/docs', '/docs/errors', '/docs/signatures']) {
      expect(links).toContain(path);
    }
    expect(html).toContain('<a href="/docs" aria-current="page">API reference</a>');
  });

  test('?api=admin selects the control API, /__admin/openapi.json, on the same page', async () => {
    const { res, html } = await page('/docs?api=admin');
    expect(res.status).toBe(200);
    expect(html).toContain('<div id="swagger-ui" data-openapi-url="/__admin/openapi.json">');
    expect(html).toContain('<a href="/docs?api=admin" aria-current="page">');
    expect(html).toContain('<a href="/docs?api=v1">');
    const v1 = await page('/docs?api=v1');
    expect(v1.html).toContain('data-openapi-url="/v1/openapi.json"');
  });

  test('an unknown ?api= is a 404 page that does not echo it', async () => {
    const { res, html } = await page('/docs?api=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toMatch(CSP);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('alert(1)');
  });

  test('both documents the reference can draw answer 200 with JSON', async () => {
    const h = harness();
    for (const path of ['/v1/openapi.json', '/__admin/openapi.json']) {
      const res = await h.request(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(((await res.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    }
  });

  test.each(['/docs', '/docs?api=admin', '/docs/errors', '/docs/signatures'])(
    'every address %s names (links, scripts, stylesheets) answers 200',
    async (path) => {
      const { h, html } = await page(path);
      const answers = await statuses(h, html);
      expect(Object.keys(answers).length).toBeGreaterThan(4);
      expect(answers).toEqual(allOk(answers));
    },
  );
});

describe('/docs/assets: swagger-ui-dist from the installed package', () => {
  test('the bundle and the stylesheet are served with their types, cached by version', async () => {
    const h = harness();
    const js = await h.request('/docs/assets/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    const text = await js.text();
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text).toContain('SwaggerUIBundle');
    const css = await h.request('/docs/assets/swagger-ui.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toContain('.swagger-ui');

    const etag = js.headers.get('etag');
    expect(etag).toBe('"swagger-ui-dist-5.35.0-swagger-ui-bundle.js"');
    const again = await h.request('/docs/assets/swagger-ui-bundle.js', {
      headers: { 'If-None-Match': etag ?? '' },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  test.each([
    'index.html',
    'package.json',
    'swagger-initializer.js',
    '..%2Fpackage.json',
    '..%2F..%2Fpackage.json',
    'constructor',
    '__proto__',
  ])(
    'a file not on the list (%s) is 404: nothing else of node_modules is reachable',
    async (name) => {
      const h = harness();
      const res = await h.request(`/docs/assets/${name}`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('"name"');
    },
  );

  test("the docs' own script and stylesheet are served from /_app", async () => {
    const h = harness();
    const script = await h.request('/_app/docs-reference.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const body = await script.text();
    // offline and not steerable from the address bar
    expect(body).toContain('validatorUrl: null');
    expect(body).toContain('queryConfigEnabled: false');
    expect(body).toContain("root.getAttribute('data-openapi-url')");
    expect((await h.request('/_app/docs.css')).status).toBe(200);
    expect((await h.request('/_app/docs-copy.js')).status).toBe(200);
  });
});

describe('/docs/errors', () => {
  test('has a row per error code with its HTTP status, id= the code, under the layout and CSP', async () => {
    const { res, html } = await page('/docs/errors');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toMatch(CSP);
    expect(html).toContain('<link rel="stylesheet" href="/_app/style.css"/>');
    expect(html).toContain('<a href="/docs/errors" aria-current="page">Errors</a>');
    for (const [code, status] of [
      ['invalid_request', 400],
      ['unauthorized', 401],
      ['plan_required', 402],
      ['forbidden', 403],
      ['not_found', 404],
      ['method_not_allowed', 405],
      ['conflict', 409],
      ['payload_too_large', 413],
      ['rate_limited', 429],
      ['server_error', 500],
    ] as const) {
      expect(html).toContain(`<tr id="${code}"><td><code>${code}</code></td><td>${status}</td>`);
    }
    expect(html).not.toMatch(/<style|\sstyle=/);
    // the back-quoted words of a meaning are code, not back quotes
    expect(html).toContain('<code>field</code> names it');
  });

  test("an error's doc_url opens this page at its row", async () => {
    const h = harness();
    const res = await h.request('/v1/ping');
    const { doc_url } = ((await res.json()) as { error: { doc_url: string } }).error;
    expect(doc_url).toBe('http://localhost/docs/errors#unauthorized');
    const target = await h.request(new URL(doc_url).pathname);
    expect(target.status).toBe(200);
    expect(await target.text()).toContain('<tr id="unauthorized">');
  });
});
