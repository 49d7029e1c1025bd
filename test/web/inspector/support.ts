import { expect } from 'vitest';
import type { Harness } from '../../support/harness';

// The inspector's pages read as a browser reads them: HTML, its links, its forms and their tokens.

export interface Page {
  status: number;
  headers: Headers;
  html: string;
}

export async function open(h: Harness, path: string): Promise<Page> {
  const res = await h.request(path);
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** A page that must answer 200 as HTML with the web app's Content-Security-Policy. */
export async function openOk(h: Harness, path: string): Promise<Page> {
  const page = await open(h, path);
  expect(page.status, page.html.slice(0, 500)).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  return page;
}

export const fromHtml = (text: string) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** The same-origin addresses a page links to (a, link, script), as the browser would ask them. */
export function linksOf(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/<(?:a|link|script)\b[^>]*?\b(?:href|src)="([^"]*)"/g)) {
    const href = fromHtml(m[1] ?? '');
    if (href.startsWith('/') && !href.startsWith('//')) {
      found.add(href);
    }
  }
  return [...found];
}

/** Every same-origin link of the page answers 200. */
export async function linksResolve(h: Harness, page: Page): Promise<void> {
  const links = linksOf(page.html);
  expect(links.length).toBeGreaterThan(0);
  for (const href of links) {
    const res = await h.request(href);
    expect(res.status, `${href} answered ${res.status}`).toBe(200);
    await res.body?.cancel();
  }
}

/** The token of the form posting to `action` on the page. */
export function tokenFor(html: string, action: string): string {
  const at = html.indexOf(`action="${action}"`);
  expect(at, `no form posts to ${action}`).toBeGreaterThan(-1);
  const token = /name="token" value="([^"]+)"/.exec(html.slice(at))?.[1];
  expect(token).toBeDefined();
  return token as string;
}

/** A form post as a browser sends it; the redirect is not followed. */
export function post(h: Harness, action: string, fields: Record<string, string>) {
  return h.request(action, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * Opens the page, posts its form to `action` with `fields` and the form's token, and follows the
 * 303 back: the page the person lands on.
 */
export async function submit(
  h: Harness,
  from: string,
  action: string,
  fields: Record<string, string> = {},
): Promise<Page & { location: string }> {
  const page = await openOk(h, from);
  const res = await post(h, action, { ...fields, token: tokenFor(page.html, action) });
  expect(res.status, await res.clone().text()).toBe(303);
  const location = res.headers.get('location') ?? '';
  expect(location.startsWith('/inspector')).toBe(true);
  return { ...(await openOk(h, location)), location };
}

/** The notice a form's redirect landed on, as text. */
export function noticeOf(html: string): { kind: string; text: string } | undefined {
  const m = /<div class="notice (ok|bad)"[^>]*><p>([^<]*)<\/p>/.exec(html);
  return m ? { kind: m[1] ?? '', text: fromHtml(m[2] ?? '') } : undefined;
}

/** The values shown once in a notice, by their label. */
export function shownOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(
    /<dt>([^<]*)<\/dt><dd><code id="shown-\d+" class="secret">([^<]*)<\/code>/g,
  )) {
    out[fromHtml(m[1] ?? '')] = fromHtml(m[2] ?? '');
  }
  return out;
}

/** A post with no token, and one with a token made for another form: both refused, 403. */
export async function expectRefused(
  h: Harness,
  action: string,
  fields: Record<string, string>,
  otherToken: string,
): Promise<void> {
  for (const token of [undefined, otherToken, 'nonsense']) {
    const res = await post(h, action, token === undefined ? fields : { ...fields, token });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request refused');
  }
}

export const SCRIPT_NAME = '<script>alert(1)</script>';
export const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;';
