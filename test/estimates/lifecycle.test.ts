// An estimate's life on the homeowner's side, through the control API: DESIGN.md, App-side
// actions (/__admin/estimates/{id}/send, view, sign, decline); decisions.md, Estimates (Status
// moves, Expiry) and Money (a date passes at the end of that day, US Central); spec, Estimate
// (the fields each move fills) and States and transitions (the statuses).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Store } from '../../src/store';
import { harness } from '../support/harness';
import {
  act,
  acted,
  advance,
  centralDayEnd,
  centralToday,
  clockNow,
  DAY_S,
  expect400,
  getEstimate,
  newEstimate,
  ok,
  plusDays,
  pricedEstimate,
  RETAIL_TEMPLATE,
  setup,
  templateId,
  UNKNOWN,
} from './setup';

const PACKAGES = { good: 8_630, better: 10_190, best: 13_180 };

/** A 409 conflict that leaves the estimate as it was. */
async function refused(res: Promise<{ status: number; body: { error: { code: string } } }>) {
  const r = await res;
  expect(r.status).toBe(409);
  expect(r.body.error.code).toBe('conflict');
}

describe('send: out for signature', () => {
  test('a draft becomes sent: sent_at, signature_status pending, view_url; GET agrees', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    const now = await advance(h, 60);
    const sent = await acted(h, made.id, 'send');
    expect(sent).toEqual({
      ...made,
      status: 'sent',
      signature_status: 'pending',
      sent_at: sent.updated_at,
      view_url: `http://localhost/view/estimates/${made.id}`,
      updated_at: sent.updated_at,
    });
    expect(Date.parse(sent.sent_at)).toBeGreaterThanOrEqual(Date.parse(now));
    expect(await getEstimate(ws, made.id)).toEqual(sent);
  });

  test('sending one already sent answers it as it is', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    const sent = await acted(h, made.id, 'send');
    await advance(h, 60);
    expect(await acted(h, made.id, 'send')).toEqual(sent);
    expect(await getEstimate(ws, made.id)).toEqual(sent);
  });

  test('sending one already viewed answers it as it is, still viewed', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    const viewed = await acted(h, made.id, 'view');
    await advance(h, 60);
    expect(await acted(h, made.id, 'send')).toEqual(viewed);
  });

  test('a signed estimate cannot be sent again: 409, unchanged', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    const signed = await acted(h, made.id, 'sign', { signer_name: 'Dana Whitfield' });
    await refused(act(h, made.id, 'send'));
    expect(await getEstimate(ws, made.id)).toEqual(signed);
  });

  test('a declined estimate still valid can be sent again: pending once more', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    await acted(h, made.id, 'decline');
    const again = await acted(h, made.id, 'send');
    expect(again).toMatchObject({ status: 'sent', signature_status: 'pending' });
  });

  test('an unknown id is 404 not_found', async () => {
    const { h } = await setup();
    for (const verb of ['send', 'view', 'sign', 'decline']) {
      const body = verb === 'sign' ? { signer_name: 'Dana' } : undefined;
      const res = await act(h, UNKNOWN, verb, body);
      expect(res.status, verb).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  test('the id in upper case names the same estimate', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    const sent = await acted(h, made.id.toUpperCase(), 'send');
    expect(sent).toMatchObject({ id: made.id, status: 'sent' });
    expect((await acted(h, made.id.toUpperCase(), 'view')).view_count).toBe(1);
  });

  test('an id of any other form is 404 not_found', async () => {
    const { h } = await setup();
    const res = await act(h, 'E-1001', 'send');
    expect(res.status).toBe(404);
  });
});

describe('view: the homeowner opens it', () => {
  test('a draft cannot be viewed: 409, unchanged', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await refused(act(h, made.id, 'view'));
    expect(await getEstimate(ws, made.id)).toEqual(made);
  });

  test('the first view moves sent to viewed and sets first and last viewed', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    const sent = await acted(h, made.id, 'send');
    await advance(h, 60);
    const viewed = await acted(h, made.id, 'view');
    expect(viewed).toEqual({
      ...sent,
      status: 'viewed',
      view_count: 1,
      first_viewed_at: viewed.updated_at,
      last_viewed_at: viewed.updated_at,
      updated_at: viewed.updated_at,
    });
    expect(viewed.signature_status).toBe('pending');
    expect(await getEstimate(ws, made.id)).toEqual(viewed);
  });

  test('every view counts; first_viewed_at is set once, last_viewed_at moves', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    const first = await acted(h, made.id, 'view');
    await advance(h, 3_600);
    const second = await acted(h, made.id, 'view');
    await advance(h, 3_600);
    const third = await acted(h, made.id, 'view');
    expect([first, second, third].map((e) => e.view_count)).toEqual([1, 2, 3]);
    expect(third.first_viewed_at).toBe(first.first_viewed_at);
    expect(Date.parse(second.last_viewed_at)).toBeGreaterThan(Date.parse(first.last_viewed_at));
    expect(Date.parse(third.last_viewed_at)).toBeGreaterThan(Date.parse(second.last_viewed_at));
    expect(third.status).toBe('viewed');
  });
});

describe('sign', () => {
  test('signer_name is required: missing, empty or blank is 400 field signer_name', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    const sent = await acted(h, made.id, 'send');
    for (const body of [{}, { signer_name: '' }, { signer_name: '   ' }, { signer_name: null }]) {
      const res = await h.admin.post(`/estimates/${made.id}/sign`, body, { invalid: true });
      expect400(res, 'signer_name');
    }
    expect400(
      await h.admin.post(`/estimates/${made.id}/sign`, undefined, { invalid: true }),
      'signer_name',
    );
    expect(await getEstimate(ws, made.id)).toEqual(sent);
  });

  test('signing a viewed estimate: signed, signed_at, signer_name, signed_pdf_url', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    const viewed = await acted(h, made.id, 'view');
    await advance(h, 60);
    const signed = await acted(h, made.id, 'sign', { signer_name: '  Dana Whitfield ' });
    expect(signed).toEqual({
      ...viewed,
      status: 'signed',
      signature_status: 'signed',
      signed_at: signed.updated_at,
      signer_name: 'Dana Whitfield',
      selected_tier: null,
      signed_pdf_url: `http://localhost/estimates/${made.id}/signed.pdf`,
      updated_at: signed.updated_at,
    });
    expect(Date.parse(signed.signed_at)).toBeGreaterThan(Date.parse(viewed.updated_at));
    expect(await getEstimate(ws, made.id)).toEqual(signed);
  });

  test('a sent estimate never opened can be signed', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    const signed = await acted(h, made.id, 'sign', { signer_name: 'Dana' });
    expect(signed).toMatchObject({ status: 'signed', view_count: 0, first_viewed_at: null });
  });

  test('selected_tier picks a package: total becomes that package', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, RETAIL_TEMPLATE),
    });
    expect(made.total).toBe(PACKAGES.good);
    await acted(h, made.id, 'send');
    const signed = await acted(h, made.id, 'sign', {
      signer_name: 'Dana Whitfield',
      selected_tier: 'better',
    });
    expect(signed).toMatchObject({
      status: 'signed',
      selected_tier: 'better',
      total: PACKAGES.better,
      package_totals: PACKAGES,
      upgrades_total: 3_135,
    });
  });

  test('signed without a tier, a package estimate keeps the base package as its total', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, RETAIL_TEMPLATE),
    });
    await acted(h, made.id, 'send');
    const signed = await acted(h, made.id, 'sign', { signer_name: 'Dana' });
    expect(signed).toMatchObject({ selected_tier: null, total: PACKAGES.good });
  });

  test('a tier that is not one of its packages is 400 field selected_tier, unchanged', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, RETAIL_TEMPLATE),
    });
    const sent = await acted(h, made.id, 'send');
    for (const selected_tier of ['platinum', 'Better', '']) {
      const res = await act(h, made.id, 'sign', { signer_name: 'Dana', selected_tier });
      expect400(res, 'selected_tier');
    }
    expect(await getEstimate(ws, made.id)).toEqual(sent);
  });

  // spec, Estimate: total is "the package the homeowner chose, else the base package". One
  // price for the whole job stands for the base until a package is chosen, never over the choice.
  test('total is the package the homeowner chose, even over one price for the whole job', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, RETAIL_TEMPLATE),
      price: 9_999.99,
    });
    expect(made).toMatchObject({ selected_tier: null, total: 9_999.99 });
    await acted(h, made.id, 'send');
    const signed = await acted(h, made.id, 'sign', { signer_name: 'Dana', selected_tier: 'best' });
    expect(signed).toMatchObject({
      selected_tier: 'best',
      total: PACKAGES.best,
      package_totals: PACKAGES,
    });
    expect(await getEstimate(ws, made.id)).toEqual(signed);
  });

  test('a signer_name over 200 characters is 400 field signer_name', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    expect400(
      await h.admin.post(
        `/estimates/${made.id}/sign`,
        { signer_name: 'n'.repeat(201) },
        {
          invalid: true,
        },
      ),
      'signer_name',
    );
    const signed = await acted(h, made.id, 'sign', { signer_name: 'n'.repeat(200) });
    expect(signed.signer_name).toHaveLength(200);
  });

  test('an estimate without packages takes no tier: 400 field selected_tier', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    expect400(
      await act(h, made.id, 'sign', { signer_name: 'Dana', selected_tier: 'good' }),
      'selected_tier',
    );
  });

  test('a draft cannot be signed or declined: 409, unchanged', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await refused(act(h, made.id, 'sign', { signer_name: 'Dana' }));
    await refused(act(h, made.id, 'decline'));
    expect(await getEstimate(ws, made.id)).toEqual(made);
  });

  test('a signed estimate cannot be signed again or declined: 409, unchanged', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    const signed = await acted(h, made.id, 'sign', { signer_name: 'Dana' });
    await refused(act(h, made.id, 'sign', { signer_name: 'Someone Else' }));
    await refused(act(h, made.id, 'decline'));
    expect(await getEstimate(ws, made.id)).toEqual(signed);
  });
});

describe('decline', () => {
  test('a sent estimate becomes declined; GET agrees', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    const sent = await acted(h, made.id, 'send');
    await advance(h, 60);
    const declined = await acted(h, made.id, 'decline');
    expect(declined).toEqual({
      ...sent,
      status: 'declined',
      signature_status: 'declined',
      updated_at: declined.updated_at,
    });
    expect(await getEstimate(ws, made.id)).toEqual(declined);
  });

  test('a viewed estimate can be declined', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    await acted(h, made.id, 'view');
    expect((await acted(h, made.id, 'decline')).status).toBe('declined');
  });

  test('declining a declined estimate answers it as it is', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    const declined = await acted(h, made.id, 'decline');
    await advance(h, 60);
    expect(await acted(h, made.id, 'decline')).toEqual(declined);
  });

  test('a declined estimate cannot be signed: 409', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    const declined = await acted(h, made.id, 'decline');
    await refused(act(h, made.id, 'sign', { signer_name: 'Dana' }));
    expect(await getEstimate(ws, made.id)).toEqual(declined);
  });
});

describe('expiry: the clock passes valid_until', () => {
  test('a draft becomes expired; its signature_status stays null', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId, { valid_until: await centralToday(h) });
    await advance(h, 3 * DAY_S);
    expect(await getEstimate(ws, made.id)).toMatchObject({
      status: 'expired',
      signature_status: null,
    });
  });

  test.each(['sent', 'viewed'])(
    'a %s estimate becomes expired, signature_status expired',
    async (status) => {
      const { h, ws, jobId } = await setup();
      const today = await centralToday(h);
      const made = await pricedEstimate(ws, jobId, { valid_until: plusDays(today, 1) });
      await acted(h, made.id, 'send');
      if (status === 'viewed') {
        await acted(h, made.id, 'view');
      }
      await advance(h, 3 * DAY_S);
      expect(await getEstimate(ws, made.id)).toMatchObject({
        status: 'expired',
        signature_status: 'expired',
      });
    },
  );

  test('it passes at the end of the day, US Central: a second before, still a draft', async () => {
    const { h, ws, jobId } = await setup();
    const tomorrow = plusDays(await centralToday(h), 1);
    const made = await pricedEstimate(ws, jobId, { valid_until: tomorrow });
    expect(made.valid_until).toBe(centralDayEnd(tomorrow));
    const left = Date.parse(made.valid_until) - Date.parse(await clockNow(h));
    await advance(h, Math.floor(left / 1000) - 1);
    expect((await getEstimate(ws, made.id)).status).toBe('draft');
    await advance(h, 2);
    expect((await getEstimate(ws, made.id)).status).toBe('expired');
  });

  test('the default valid_until expires the estimate 30 days on, not before', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await advance(h, 29 * DAY_S);
    expect((await getEstimate(ws, made.id)).status).toBe('draft');
    await advance(h, 2 * DAY_S);
    expect((await getEstimate(ws, made.id)).status).toBe('expired');
  });

  test('a signed estimate never expires', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId, { valid_until: await centralToday(h) });
    await acted(h, made.id, 'send');
    const signed = await acted(h, made.id, 'sign', { signer_name: 'Dana' });
    await advance(h, 3 * DAY_S);
    expect(await getEstimate(ws, made.id)).toEqual(signed);
  });

  test('a declined estimate stays declined', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId, { valid_until: await centralToday(h) });
    await acted(h, made.id, 'send');
    const declined = await acted(h, made.id, 'decline');
    await advance(h, 3 * DAY_S);
    expect(await getEstimate(ws, made.id)).toEqual(declined);
  });

  test('an expired estimate is listed under status=expired', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId, { valid_until: await centralToday(h) });
    await advance(h, 3 * DAY_S);
    const page = await ok(ws.api.get('/estimates', { query: { status: 'expired' } }));
    expect(page.data.map((e: { id: string }) => e.id)).toEqual([made.id]);
  });

  test('once expired it cannot be sent, signed or declined (409) until valid_until moves on', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId, { valid_until: await centralToday(h) });
    await acted(h, made.id, 'send');
    await advance(h, 3 * DAY_S);
    const expired = await getEstimate(ws, made.id);
    expect(expired.status).toBe('expired');
    await refused(act(h, made.id, 'send'));
    await refused(act(h, made.id, 'sign', { signer_name: 'Dana' }));
    await refused(act(h, made.id, 'decline'));
    expect(await getEstimate(ws, made.id)).toEqual(expired);

    const later = plusDays(await centralToday(h), 7);
    await ok(ws.api.patch(`/estimates/${made.id}`, { valid_until: later }));
    const resent = await acted(h, made.id, 'send');
    expect(resent).toMatchObject({
      status: 'sent',
      signature_status: 'pending',
      valid_until: centralDayEnd(later),
    });
    expect(Date.parse(resent.sent_at)).toBeGreaterThan(Date.parse(expired.sent_at));
  });

  test('sent again with a new valid_until, it expires again when that passes', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId, { valid_until: await centralToday(h) });
    await advance(h, 2 * DAY_S);
    const later = plusDays(await centralToday(h), 1);
    await ok(ws.api.patch(`/estimates/${made.id}`, { valid_until: later }));
    await acted(h, made.id, 'send');
    await advance(h, 3 * DAY_S);
    expect(await getEstimate(ws, made.id)).toMatchObject({
      status: 'expired',
      signature_status: 'expired',
    });
  });

  test('moving valid_until on (PATCH) moves the expiry with it', async () => {
    const { h, ws, jobId } = await setup();
    const today = await centralToday(h);
    const made = await pricedEstimate(ws, jobId, { valid_until: today });
    await ok(ws.api.patch(`/estimates/${made.id}`, { valid_until: plusDays(today, 10) }));
    await advance(h, 3 * DAY_S);
    expect((await getEstimate(ws, made.id)).status).toBe('draft');
    await advance(h, 9 * DAY_S);
    expect((await getEstimate(ws, made.id)).status).toBe('expired');
  });

  test('a declined estimate past valid_until cannot be sent again (409) until it moves on', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId, { valid_until: await centralToday(h) });
    await acted(h, made.id, 'send');
    const declined = await acted(h, made.id, 'decline');
    await advance(h, 3 * DAY_S);
    await refused(act(h, made.id, 'send'));
    expect(await getEstimate(ws, made.id)).toEqual(declined);
    await ok(ws.api.patch(`/estimates/${made.id}`, { valid_until: null }));
    expect((await acted(h, made.id, 'send')).status).toBe('sent');
  });

  test('an estimate whose valid_until is null never expires, even out for signature', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId, { valid_until: await centralToday(h) });
    await ok(ws.api.patch(`/estimates/${made.id}`, { valid_until: null }));
    await acted(h, made.id, 'send');
    await advance(h, 60 * DAY_S);
    expect(await getEstimate(ws, made.id)).toMatchObject({ status: 'sent', valid_until: null });
  });
});

describe('expiry across a restart', () => {
  test('an estimate whose valid_until passes after a restart expires all the same', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-estimates-'));
    try {
      const file = join(dir, 'data.json');
      const first = await Store.open(file);
      const before = await setup(harness({ rateLimit: null }, { store: first.store }));
      const made = await pricedEstimate(before.ws, before.jobId, {
        valid_until: await centralToday(before.h),
      });
      await acted(before.h, made.id, 'send');
      before.h.rt.scheduler.stop();
      await first.store.close();

      const second = await Store.open(file);
      const h = harness({ rateLimit: null }, { store: second.store });
      try {
        await advance(h, 3 * DAY_S);
        const res = await h.as(before.ws.keys.read.key).get(`/estimates/${made.id}`);
        expect(res.body).toMatchObject({ status: 'expired', signature_status: 'expired' });
      } finally {
        h.rt.scheduler.stop();
        await second.store.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
