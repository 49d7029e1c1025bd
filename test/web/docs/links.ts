import type { Harness } from '../../support/harness';

/** Every same-origin address a page names: links, scripts and stylesheets (fragments dropped). */
export function addressesOf(html: string): string[] {
  const found = new Set<string>();
  for (const [, address] of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const decoded = (address ?? '').replaceAll('&amp;', '&');
    const url = new URL(decoded, 'http://localhost/');
    if (url.origin === 'http://localhost') {
      found.add(url.pathname + url.search);
    }
  }
  return [...found].sort();
}

/** The status each address answers; the caller expects them all 200. */
export async function statuses(h: Harness, html: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const address of addressesOf(html)) {
    out[address] = (await h.request(address)).status;
  }
  return out;
}

export const allOk = (answers: Record<string, number>) =>
  Object.fromEntries(Object.keys(answers).map((address) => [address, 200]));
