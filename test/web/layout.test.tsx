import { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import { Page } from '../../src/web/ui/layout';

describe('the web app layout', () => {
  test('what a page shows is escaped: a name holding a script tag renders as text', async () => {
    const app = new Hono().get('/', (c) =>
      c.html(
        <Page title="<b>t</b>">
          <p>{'<script>alert(1)</script>'}</p>
        </Page>,
      ),
    );
    const html = await (await app.request('/')).text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('<title>&lt;b&gt;t&lt;/b&gt; · svc</title>');
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
  });
});
