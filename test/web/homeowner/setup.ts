// Shared by the homeowner page tests: one app per file, a workspace per test with a homeowner, a
// job and its money made through the API, the pages fetched and their forms posted as a browser
// would, and the readings of a page (its links, its forms' hidden fields) done with regexes on the
// HTML svc wrote.
import { expect } from 'vitest';
import { ok } from '../../support/expect';
import { hiddenFields, htmlText } from '../../support/forms';
import { type Harness, harness, type Json, type TestWorkspace } from '../../support/harness';

export { hiddenFields, ok };

export const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';
export const XSS = '<script>alert(1)</script>';
export const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;';

/** A public target never sent to: deliveries are logged, so a test reads which events fired. */
const TARGET = 'https://93.184.216.34/hooks/homeowner';

let shared: Harness | undefined;
export const app = (): Harness => {
  shared ??= harness({ rateLimit: null });
  return shared;
};

export interface Page {
  status: number;
  headers: Headers;
  html: string;
}

export async function open(h: Harness, path: string): Promise<Page> {
  const res = await h.request(path);
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** Posts a form as a browser does (urlencoded); answers the page, or the redirect. */
export async function submit(
  h: Harness,
  path: string,
  fields: Record<string, string>,
): Promise<Page> {
  const res = await h.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** Every href of a page that stays on svc (a path, or an address on the harness's origin). */
export function links(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)]
    .map((m) => htmlText(m[1] ?? ''))
    .filter((href) => href.startsWith('/') || href.startsWith('http://localhost/'))
    .map((href) => href.replace('http://localhost', ''));
}

/** Each same-origin link of a page answers 200 (PDFs and stylesheets included). */
export async function expectLinksResolve(h: Harness, html: string): Promise<void> {
  const hrefs = links(html);
  expect(hrefs.length).toBeGreaterThan(0);
  for (const href of hrefs) {
    const res = await h.request(href);
    expect(res.status, `${href} answers`).toBe(200);
  }
}

/** The Content-Security-Policy the web app sends its pages with. */
export function expectGuarded(page: Page): void {
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("form-action 'self'");
  expect(page.headers.get('x-frame-options')).toBe('DENY');
}

export interface Money {
  h: Harness;
  ws: TestWorkspace;
  job: Json;
  homeownerId: string;
  hookId: string;
}

/**
 * A workspace of the test's own (empty profile: its estimate templates, no jobs) with a homeowner
 * Ada Lovelace, her job at 12 Elm St, and a subscription to every event, logged but never sent.
 */
export async function money(h: Harness = app(), names: { company?: string } = {}): Promise<Money> {
  const ws = await h.workspace({ name: names.company ?? 'Summit Roofing' });
  const contact = await ok(
    ws.api.post('/contacts', { first_name: 'Ada', last_name: 'Lovelace', type: 'homeowner' }),
    201,
  );
  const job = await ok(
    ws.api.post('/jobs', {
      name: 'Lovelace roof',
      address: '12 Elm St',
      city: 'Tulsa',
      state: 'OK',
      postal_code: '74103',
      homeowner_id: contact.id,
    }),
    201,
  );
  const hook = await ok(ws.api.post('/webhooks', { target_url: TARGET, event: '*' }), 201);
  return { h, ws, job, homeownerId: contact.id, hookId: hook.id };
}

/** The events logged for the subscription since it was made, oldest first. */
export async function events(m: Money): Promise<string[]> {
  const log = await ok(m.h.admin.get(`/webhooks/${m.hookId}/deliveries`));
  return log.data.map((d: Json) => d.event).reverse();
}

/** A draft estimate from the workspace's template of good/better/best packages, or with lines. */
export async function estimate(m: Money, body: Record<string, unknown> = {}): Promise<Json> {
  return ok(m.ws.api.post('/estimates', { job_id: m.job.id, ...body }), 201);
}

/** The id of the seeded template whose estimates have packages. */
export async function packagedTemplate(m: Money): Promise<string> {
  const list = await ok(m.ws.api.get('/estimate_templates'));
  for (const t of list.data as Json[]) {
    const e = await estimate(m, { template_id: t.id });
    if (e.package_totals !== null) {
      return t.id;
    }
  }
  throw new Error('no seeded template has packages');
}

/** An estimate sent for signature through the control API; answers it as GET shows it. */
export async function sentEstimate(m: Money, body: Record<string, unknown> = {}): Promise<Json> {
  const e = await estimate(m, body);
  return ok(m.h.admin.post(`/estimates/${e.id}/send`));
}

/** A sent invoice of $1,000 (plus `body`) on the job; answers it as GET shows it. */
export async function sentInvoice(m: Money, body: Record<string, unknown> = {}): Promise<Json> {
  const inv = await ok(
    m.ws.api.post('/invoices', {
      job_id: m.job.id,
      line_items: [{ name: 'Roof replacement', unit_price: 1000, taxable: true }],
      ...body,
    }),
    201,
  );
  return ok(m.ws.api.post(`/invoices/${inv.id}/mark_sent`));
}

export const path = (url: string): string => new URL(url).pathname;
