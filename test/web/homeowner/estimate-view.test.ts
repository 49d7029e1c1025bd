// An estimate's view_url (DESIGN.md, the web app; decisions.md, Estimates): opening it is the
// control API's view, signing and declining are its sign and decline, with the same events.
import { describe, expect, test } from 'vitest';
import {
  ESCAPED,
  estimate,
  events,
  expectGuarded,
  expectLinksResolve,
  hiddenFields,
  money,
  ok,
  open,
  packagedTemplate,
  path,
  sentEstimate,
  submit,
  UNKNOWN,
  XSS,
} from './setup';

const view = (id: string) => `/view/estimates/${id}`;

describe('the estimate view page', () => {
  test('opening a sent estimate counts a view as POST /__admin/estimates/{id}/view does', async () => {
    const m = await money();
    const e = await sentEstimate(m, { line_items: [{ name: 'Tear-off', unit_price: 1200 }] });
    const page = await open(m.h, path(e.view_url));
    expect(page.status).toBe(200);
    expectGuarded(page);
    expect(page.html).toContain('Summit Roofing');
    expect(page.html).toContain('Tear-off');
    expect(page.html).toContain('$1,200.00');
    expect(page.html).toContain('Ada Lovelace');
    expect(page.html).toContain('12 Elm St, Tulsa, OK 74103');
    const after = await ok(m.ws.api.get(`/estimates/${e.id}`));
    expect(after).toMatchObject({ status: 'viewed', view_count: 1 });
    expect(after.first_viewed_at).toBe(after.last_viewed_at);
    await open(m.h, path(e.view_url));
    const twice = await ok(m.ws.api.get(`/estimates/${e.id}`));
    expect(twice.view_count).toBe(2);
    expect(twice.first_viewed_at).toBe(after.first_viewed_at);
    // decisions.md: estimate.viewed on the first view only.
    expect((await events(m)).filter((ev) => ev === 'estimate.viewed')).toHaveLength(1);
  });

  test('every link of the page answers 200', async () => {
    const m = await money();
    const e = await sentEstimate(m, { line_items: [{ name: 'Roof', unit_price: 900 }] });
    await expectLinksResolve(m.h, (await open(m.h, view(e.id))).html);
  });

  test('an estimate never sent, an unknown id and a deleted job are the 404 page, and count nothing', async () => {
    const m = await money();
    const draft = await estimate(m, { line_items: [{ name: 'Roof', unit_price: 900 }] });
    expect(draft.view_url).toBeNull();
    expect((await open(m.h, view(draft.id))).status).toBe(404);
    expect((await ok(m.ws.api.get(`/estimates/${draft.id}`))).view_count).toBe(0);
    expect((await open(m.h, view(UNKNOWN))).status).toBe(404);
    const sent = await sentEstimate(m, { line_items: [{ name: 'Roof', unit_price: 900 }] });
    await ok(m.ws.api.delete(`/jobs/${m.job.id}`));
    const gone = await open(m.h, view(sent.id));
    expect(gone.status).toBe(404);
    expectGuarded(gone);
  });

  test('signing with a typed name signs through the same service: estimate.signed, signed PDF', async () => {
    const m = await money();
    const e = await sentEstimate(m, { line_items: [{ name: 'Roof', unit_price: 900 }] });
    const page = await open(m.h, view(e.id));
    const fields = hiddenFields(page.html, `${view(e.id)}/sign`);
    const done = await submit(m.h, `${view(e.id)}/sign`, {
      ...fields,
      signer_name: '  Ada Lovelace ',
    });
    expect(done.status).toBe(200);
    expect(done.html).toContain('Signed by <strong>Ada Lovelace</strong>');
    expect(done.html).toContain(`/estimates/${e.id}/signed.pdf`);
    expect(done.html).not.toContain(`${view(e.id)}/sign"`);
    const after = await ok(m.ws.api.get(`/estimates/${e.id}`));
    expect(after).toMatchObject({
      status: 'signed',
      signature_status: 'signed',
      signer_name: 'Ada Lovelace',
      selected_tier: null,
      // decisions.md: the confirmation is the post's answer; signing is not another view.
      view_count: 1,
    });
    expect(after.signed_pdf_url).toMatch(/\/signed\.pdf$/);
    expect(await events(m)).toContain('estimate.signed');
    await expectLinksResolve(m.h, done.html);
  });

  test('with packages the homeowner chooses one; its total is the estimate total', async () => {
    const m = await money();
    const e = await sentEstimate(m, { template_id: await packagedTemplate(m) });
    const tiers = Object.keys(e.package_totals);
    expect(tiers.length).toBeGreaterThan(1);
    const page = await open(m.h, view(e.id));
    for (const tier of tiers) {
      expect(page.html).toContain(`name="selected_tier" value="${tier}"`);
    }
    const fields = hiddenFields(page.html, `${view(e.id)}/sign`);
    const noTier = await submit(m.h, `${view(e.id)}/sign`, { ...fields, signer_name: 'Ada' });
    expect(noTier.status).toBe(400);
    expect(noTier.html).toContain('Choose a package');
    expect((await ok(m.ws.api.get(`/estimates/${e.id}`))).status).toBe('viewed');
    const last = tiers[tiers.length - 1] ?? '';
    const signed = await submit(m.h, `${view(e.id)}/sign`, {
      ...fields,
      signer_name: 'Ada',
      selected_tier: last,
    });
    expect(signed.status).toBe(200);
    const after = await ok(m.ws.api.get(`/estimates/${e.id}`));
    expect(after).toMatchObject({
      status: 'signed',
      selected_tier: last,
      total: e.package_totals[last],
    });
  });

  test('a package the estimate does not have is refused by the service, the form shown again', async () => {
    const m = await money();
    const e = await sentEstimate(m, { template_id: await packagedTemplate(m) });
    const fields = hiddenFields((await open(m.h, view(e.id))).html, `${view(e.id)}/sign`);
    const res = await submit(m.h, `${view(e.id)}/sign`, {
      ...fields,
      signer_name: 'Ada',
      selected_tier: 'platinum',
    });
    expect(res.status).toBe(400);
    expect(res.html).toContain('selected_tier must be one of');
    expect(res.html).toContain(`${view(e.id)}/sign`);
    expect((await ok(m.ws.api.get(`/estimates/${e.id}`))).status).toBe('viewed');
  });

  test('a blank name is refused and nothing is signed', async () => {
    const m = await money();
    const e = await sentEstimate(m, { line_items: [{ name: 'Roof', unit_price: 900 }] });
    const fields = hiddenFields((await open(m.h, view(e.id))).html, `${view(e.id)}/sign`);
    const res = await submit(m.h, `${view(e.id)}/sign`, { ...fields, signer_name: '   ' });
    expect(res.status).toBe(400);
    expect(res.html).toContain('Type your name to sign.');
    expect((await ok(m.ws.api.get(`/estimates/${e.id}`))).status).toBe('viewed');
  });

  test('a post without the page token, with a wrong one or another form’s is 403 and signs nothing', async () => {
    const m = await money();
    const e = await sentEstimate(m, { line_items: [{ name: 'Roof', unit_price: 900 }] });
    const page = await open(m.h, view(e.id));
    const decline = hiddenFields(page.html, `${view(e.id)}/decline`);
    const other = await sentEstimate(m, { line_items: [{ name: 'Gutter', unit_price: 90 }] });
    const otherSign = hiddenFields(
      (await open(m.h, view(other.id))).html,
      `${view(other.id)}/sign`,
    );
    for (const token of [undefined, 'garbage', decline.page_token, otherSign.page_token]) {
      const res = await submit(m.h, `${view(e.id)}/sign`, {
        ...(token === undefined ? {} : { page_token: token }),
        signer_name: 'Mallory',
      });
      expect(res.status).toBe(403);
      expectGuarded(res);
    }
    const declined = await submit(m.h, `${view(e.id)}/decline`, { page_token: 'garbage' });
    expect(declined.status).toBe(403);
    const after = await ok(m.ws.api.get(`/estimates/${e.id}`));
    expect(after).toMatchObject({ status: 'viewed', signer_name: null });
    expect(await events(m)).not.toContain('estimate.signed');
  });

  test('declining declines through the same service: estimate.declined, no form afterwards', async () => {
    const m = await money();
    const e = await sentEstimate(m, { line_items: [{ name: 'Roof', unit_price: 900 }] });
    const fields = hiddenFields((await open(m.h, view(e.id))).html, `${view(e.id)}/decline`);
    const res = await submit(m.h, `${view(e.id)}/decline`, fields);
    expect(res.status).toBe(200);
    expect(res.html).toContain('You declined this');
    expect(res.html).not.toContain('name="signer_name"');
    expect((await ok(m.ws.api.get(`/estimates/${e.id}`))).status).toBe('declined');
    expect(await events(m)).toContain('estimate.declined');
  });

  test('a form kept open after the estimate was signed elsewhere answers 409 with the state', async () => {
    const m = await money();
    const e = await sentEstimate(m, { line_items: [{ name: 'Roof', unit_price: 900 }] });
    const html = (await open(m.h, view(e.id))).html;
    await ok(m.h.admin.post(`/estimates/${e.id}/sign`, { signer_name: 'Charles Babbage' }));
    const sign = await submit(m.h, `${view(e.id)}/sign`, {
      ...hiddenFields(html, `${view(e.id)}/sign`),
      signer_name: 'Ada',
    });
    expect(sign.status).toBe(409);
    expect(sign.html).toContain('Charles Babbage');
    const decline = await submit(
      m.h,
      `${view(e.id)}/decline`,
      hiddenFields(html, `${view(e.id)}/decline`),
    );
    expect(decline.status).toBe(409);
    expect((await ok(m.ws.api.get(`/estimates/${e.id}`))).signer_name).toBe('Charles Babbage');
  });

  test('an expired estimate says why and offers nothing', async () => {
    const m = await money();
    const e = await sentEstimate(m, { line_items: [{ name: 'Roof', unit_price: 900 }] });
    await ok(m.h.admin.post('/clock', { advance_seconds: 40 * 24 * 3600 }));
    expect((await ok(m.ws.api.get(`/estimates/${e.id}`))).status).toBe('expired');
    const page = await open(m.h, view(e.id));
    expect(page.status).toBe(200);
    expect(page.html).toContain('expired on');
    expect(page.html).not.toContain('<form');
  });

  test('a declined estimate says so and offers nothing', async () => {
    const m = await money();
    const e = await sentEstimate(m, { line_items: [{ name: 'Roof', unit_price: 900 }] });
    await ok(m.h.admin.post(`/estimates/${e.id}/decline`));
    const page = await open(m.h, view(e.id));
    expect(page.html).toContain('You declined this');
    expect(page.html).not.toContain('<form');
  });

  test('what the page shows is escaped: a script tag in the company or a line renders as text', async () => {
    const m = await money(undefined, { company: XSS });
    const e = await sentEstimate(m, { line_items: [{ name: XSS, unit_price: 5 }], title: XSS });
    const page = await open(m.h, view(e.id));
    expect(page.html).toContain(ESCAPED);
    expect(page.html).not.toContain(XSS);
  });
});
