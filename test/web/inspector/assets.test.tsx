import { describe, expect, test } from 'vitest';
import { harness } from '../../support/harness';
import { openOk, post } from './support';

// The inspector's script and stylesheet are svc's own, and no page needs anything inline.

const h = harness({ rateLimit: null });
const PAGES = [
  '/inspector',
  '/inspector/requests',
  '/inspector/webhooks',
  '/inspector/clock',
  '/inspector/faults',
];

describe('the inspector’s assets', () => {
  test('its script and stylesheet are served from /_app with their types', async () => {
    const js = await h.request('/_app/inspector.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toContain('new EventSource(stream)');
    const css = await h.request('/_app/inspector.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  test('no page has an inline script, an inline style or a style attribute', async () => {
    for (const path of PAGES) {
      const { html } = await openOk(h, path);
      expect(html, path).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html, path).not.toMatch(/<style|\sstyle=/);
      expect(html, path).toContain('<script src="/_app/inspector.js"');
    }
  });

  test('a form post larger than any of its forms is refused unread, 413', async () => {
    const res = await post(h, '/inspector/workspaces', { name: 'x'.repeat(70_000) });
    expect(res.status).toBe(413);
    expect([...h.rt.store.global.values('workspaces')]).toHaveLength(0);
  });
});
