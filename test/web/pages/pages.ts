import { expect } from 'vitest';
import type { Harness } from '../../support/harness';

// Reading the record pages as a browser would: the page, the links and images in its <main> (the
// header's are the layout's, tested with it), and whether each same-origin one answers 200.

export const ORIGIN = 'http://localhost';

export interface Html {
  status: number;
  headers: Headers;
  html: string;
  /** The text of <main>. */
  main: string;
}

export async function page(h: Harness, path: string): Promise<Html> {
  const res = await h.request(path.startsWith('http') ? path : `${ORIGIN}${path}`);
  const html = await res.text();
  const main = /<main>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
  return { status: res.status, headers: res.headers, html, main };
}

const fromHtml = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** The href and src addresses in <main>, as the browser would read them. */
export function linksOf(p: Html): string[] {
  return [...p.main.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => fromHtml(m[1] as string));
}

/** A link is followed when it stays on svc: a path, or an address on the page's origin. */
function followable(link: string): string | undefined {
  if (link.startsWith('#')) {
    return undefined;
  }
  if (link.startsWith('/')) {
    return `${ORIGIN}${link}`;
  }
  return link.startsWith(`${ORIGIN}/`) ? link : undefined;
}

/** Every same-origin link and image of the page answers 200; answers how many were followed. */
export async function linksAnswer(h: Harness, p: Html): Promise<number> {
  const targets = [...new Set(linksOf(p).flatMap((l) => followable(l) ?? []))];
  for (const target of targets) {
    const res = await h.request(target.split('#')[0] as string);
    expect(res.status, target).toBe(200);
    await res.arrayBuffer();
  }
  return targets.length;
}

/** What every HTML page of the web app is sent with. */
export function expectPageHeaders(p: Html): void {
  expect(p.headers.get('content-type')).toMatch(/^text\/html/);
  const csp = p.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("default-src 'none'");
}

/** The hidden token of the page's form that posts to `action`. */
export function tokenOf(p: Html, action: string): string {
  const form = new RegExp(`<form[^>]*action="${action}"[^>]*>([\\s\\S]*?)</form>`).exec(p.main);
  const token = form && /name="token" value="([^"]+)"/.exec(form[1] as string)?.[1];
  if (!token) {
    throw new Error(`no form posting to ${action} with a token`);
  }
  return token;
}

export const post = (h: Harness, path: string, form: Record<string, string>) =>
  h.request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

export const XSS = '<script>alert(1)</script>';
export const XSS_TEXT = '&lt;script&gt;alert(1)&lt;/script&gt;';
