// PATCH /estimates/{id}: spec, Estimates (title, price, valid_until; "409 once out for signature
// or signed"), States and transitions (the refused update leaves the estimate unchanged), Errors;
// decisions.md, Estimates (PATCH: a draft, expired or declined one can be changed; a blank title is
// null; valid_until null never expires) and Jobs (a PATCH that changes nothing writes nothing).
import { describe, expect, test } from 'vitest';
import type { Harness, TestWorkspace } from '../support/harness';
import {
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

const patch = (ws: TestWorkspace, id: string, body: unknown) =>
  ok(ws.api.patch(`/estimates/${id}`, body));

describe('PATCH /estimates/{id} changes a draft', () => {
  test('title: the answer is the estimate as GET then returns it, updated_at moved', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    const now = await advance(h, 60);
    const res = await patch(ws, made.id, { title: 'North slope only' });
    expect(res).toEqual({ ...made, title: 'North slope only', updated_at: res.updated_at });
    expect(Date.parse(res.updated_at)).toBeGreaterThanOrEqual(Date.parse(now));
    expect(await getEstimate(ws, made.id)).toEqual(res);
  });

  test('title is trimmed; blank or null clears it to null, never ""', async () => {
    const { ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    expect((await patch(ws, made.id, { title: '  Re-roof  ' })).title).toBe('Re-roof');
    expect((await patch(ws, made.id, { title: '   ' })).title).toBeNull();
    await patch(ws, made.id, { title: 'Back again' });
    expect((await patch(ws, made.id, { title: null })).title).toBeNull();
    expect((await getEstimate(ws, made.id)).title).toBeNull();
  });

  test('price sets the total; null takes the price off and the total falls back to the lines', async () => {
    const { ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    expect(made.total).toBe(1_000);
    expect((await patch(ws, made.id, { price: 1_234.56 })).total).toBe(1_234.56);
    expect((await patch(ws, made.id, { price: null })).total).toBe(1_000);
  });

  test('price null on the checklist gives total null again, never 0', async () => {
    const { ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId, { price: 9_000 });
    expect(made.total).toBe(9_000);
    expect((await patch(ws, made.id, { price: null })).total).toBeNull();
  });

  test('price null on a package estimate falls back to the base package', async () => {
    const { ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, RETAIL_TEMPLATE),
      price: 9_999,
    });
    expect(made.total).toBe(9_999);
    expect((await patch(ws, made.id, { price: null })).total).toBe(8_630);
  });

  test('valid_until: a date is shown as the end of that day, US Central', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    const day = plusDays(await centralToday(h), 5);
    expect((await patch(ws, made.id, { valid_until: day })).valid_until).toBe(centralDayEnd(day));
    expect((await patch(ws, made.id, { valid_until: '2099-07-15' })).valid_until).toBe(
      '2099-07-16T04:59:59.999Z',
    );
  });

  test('valid_until null: the estimate never expires', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    expect((await patch(ws, made.id, { valid_until: null })).valid_until).toBeNull();
    await advance(h, 40 * DAY_S);
    expect(await getEstimate(ws, made.id)).toMatchObject({ status: 'draft', valid_until: null });
  });

  test('several fields in one PATCH', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    const day = plusDays(await centralToday(h), 10);
    const res = await patch(ws, made.id, { title: 'Full', price: 7_500, valid_until: day });
    expect(res).toMatchObject({ title: 'Full', total: 7_500, valid_until: centralDayEnd(day) });
  });

  test('a field left out is left as it is', async () => {
    const { ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId, { title: 'Keep me', price: 4_000 });
    const res = await patch(ws, made.id, { price: 4_100 });
    expect(res).toMatchObject({ title: 'Keep me', total: 4_100, valid_until: made.valid_until });
  });

  test('a PATCH that changes nothing keeps updated_at', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId, { title: 'Same', price: 500 });
    await advance(h, 60);
    expect(await patch(ws, made.id, { title: 'Same', price: 500 })).toEqual(made);
    expect(await patch(ws, made.id, {})).toEqual(made);
    expect((await getEstimate(ws, made.id)).updated_at).toBe(made.updated_at);
  });

  test('fields the PATCH body does not take (status, lines, job) are ignored: nothing changes', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await advance(h, 60);
    const res = await ws.api.patch(
      `/estimates/${made.id}`,
      {
        status: 'signed',
        sent_at: '2026-01-01T00:00:00.000Z',
        job_id: UNKNOWN,
        line_items: [{ name: 'Other', unit_price: 5 }],
        estimate_number: 'E-9999',
      },
      { invalid: true },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual(made);
  });

  test('a body that is not an object is 400 invalid_request, unchanged', async () => {
    const { ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    const res = await ws.api.patch(`/estimates/${made.id}`, ['title'], { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(await getEstimate(ws, made.id)).toEqual(made);
  });

  test('an estimate number, status and figures other than the total stay as they were', async () => {
    const { ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, RETAIL_TEMPLATE),
    });
    const res = await patch(ws, made.id, { title: 'Tiers' });
    expect(res).toMatchObject({
      estimate_number: made.estimate_number,
      status: 'draft',
      document_type: 'proposal',
      package_totals: made.package_totals,
      upgrades_total: made.upgrades_total,
      job_id: jobId,
    });
  });
});

describe('PATCH /estimates/{id}: 400 naming the field, the estimate unchanged', () => {
  test.each<[string, string, Record<string, unknown>]>([
    ['price 0', 'price', { price: 0 }],
    ['price -1', 'price', { price: -1 }],
    ['price as text', 'price', { price: '100' }],
    ['title over 300 characters', 'title', { title: 'x'.repeat(301) }],
    ['valid_until not a date', 'valid_until', { valid_until: '2099-02-30' }],
    ['valid_until a date-time', 'valid_until', { valid_until: '2099-01-01T00:00:00Z' }],
  ])('%s is 400 field %s', async (_, field, body) => {
    const { ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    expect400(await ws.api.patch(`/estimates/${made.id}`, body, { invalid: true }), field);
    expect(await getEstimate(ws, made.id)).toEqual(made);
  });

  test('valid_until before today is 400 field valid_until', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    const yesterday = plusDays(await centralToday(h), -1);
    expect400(
      await ws.api.patch(`/estimates/${made.id}`, { valid_until: yesterday }),
      'valid_until',
    );
    expect(await getEstimate(ws, made.id)).toEqual(made);
  });
});

describe('PATCH /estimates/{id}: 409 once out for signature or signed', () => {
  /** An estimate of `ws` brought to `status` through the control API. */
  async function brought(h: Harness, ws: TestWorkspace, jobId: string, status: string) {
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    if (status === 'viewed' || status === 'signed') {
      await acted(h, made.id, 'view');
    }
    if (status === 'signed') {
      await acted(h, made.id, 'sign', { signer_name: 'Dana Whitfield' });
    }
    const now = await getEstimate(ws, made.id);
    expect(now.status).toBe(status);
    return now;
  }

  test.each(['sent', 'viewed', 'signed'])(
    'a %s estimate is 409 conflict, and the refused PATCH changes nothing',
    async (status) => {
      const { h, ws, jobId } = await setup();
      const before = await brought(h, ws, jobId, status);
      await advance(h, 60);
      for (const body of [{ title: 'Changed' }, { price: 2_000 }, { valid_until: null }]) {
        const res = await ws.api.patch(`/estimates/${before.id}`, body);
        expect(res.status, JSON.stringify(body)).toBe(409);
        expect(res.body.error.code).toBe('conflict');
      }
      expect(await getEstimate(ws, before.id)).toEqual(before);
    },
  );

  test('a declined estimate can be changed', async () => {
    const { h, ws, jobId } = await setup();
    const made = await pricedEstimate(ws, jobId);
    await acted(h, made.id, 'send');
    await acted(h, made.id, 'decline');
    const res = await patch(ws, made.id, { price: 800, title: 'Second offer' });
    expect(res).toMatchObject({ status: 'declined', total: 800, title: 'Second offer' });
  });

  test('an expired estimate can be changed, its valid_until moved on', async () => {
    const { h, ws, jobId } = await setup();
    const today = await centralToday(h);
    const made = await pricedEstimate(ws, jobId, { valid_until: today });
    await advance(h, 2 * DAY_S);
    expect((await getEstimate(ws, made.id)).status).toBe('expired');
    const later = plusDays(await centralToday(h), 7);
    const res = await patch(ws, made.id, { valid_until: later, title: 'Renewed' });
    expect(res).toMatchObject({
      status: 'expired',
      valid_until: centralDayEnd(later),
      title: 'Renewed',
    });
  });
});

describe('PATCH /estimates/{id}: who and what', () => {
  test('an unknown id is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.patch(`/estimates/${UNKNOWN}`, { title: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('an id of any other form is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.patch('/estimates/E-1001', { title: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test("another workspace's estimate is 404 and stays as it was", async () => {
    const s = await setup();
    const other = await setup(s.h);
    const theirs = await newEstimate(other.ws, other.jobId);
    expect((await s.ws.api.patch(`/estimates/${theirs.id}`, { title: 'mine' })).status).toBe(404);
    expect(await getEstimate(other.ws, theirs.id)).toEqual(theirs);
  });

  test('an estimate of a deleted job is 404', async () => {
    const { ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    await ok(ws.api.delete(`/jobs/${jobId}`));
    const res = await ws.api.patch(`/estimates/${made.id}`, { title: 'x' });
    expect(res.status).toBe(404);
  });

  test('a read-only key is 403 forbidden and changes nothing', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    await advance(h, 1);
    const res = await ws.read.patch(`/estimates/${made.id}`, { title: 'Nope' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(await getEstimate(ws, made.id)).toEqual(made);
  });

  test('the id in upper case names the same estimate', async () => {
    const { h, ws, jobId } = await setup();
    const made = await newEstimate(ws, jobId);
    const now = await clockNow(h);
    const res = await patch(ws, made.id.toUpperCase(), { title: 'Upper' });
    expect(res).toMatchObject({ id: made.id, title: 'Upper' });
    expect(Date.parse(res.updated_at)).toBeGreaterThanOrEqual(Date.parse(now));
  });
});
