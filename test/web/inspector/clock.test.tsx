import { describe, expect, test } from 'vitest';
import { instantOf } from '../../../src/web/inspector/clock';
import { harness } from '../../support/harness';
import { advance, createJob, jobCreatedHook, log } from '../../webhooks/setup';
import { expectRefused, linksResolve, noticeOf, openOk, submit, tokenFor } from './support';

// The virtual clock: forward only, as POST /__admin/clock, and what fell due on the way.

const HOUR = 3600_000;

const nowOf = async (h: ReturnType<typeof harness>) =>
  Date.parse((await h.admin.get('/clock')).body.now);

describe('/inspector/clock', () => {
  test('shows the time svc keeps, with links that answer', async () => {
    const h = harness({ rateLimit: null });
    const page = await openOk(h, '/inspector/clock');
    const shown = /<dd class="mono" id="now">([^<]+)<\/dd>/.exec(page.html)?.[1] ?? '';
    expect(Math.abs(Date.parse(shown) - (await nowOf(h)))).toBeLessThan(5000);
    await linksResolve(h, page);
  });

  test('advancing an hour, then a day, moves the clock by that much', async () => {
    const h = harness({ rateLimit: null });
    const start = await nowOf(h);
    const hour = await submit(h, '/inspector/clock', '/inspector/clock/advance/hour');
    expect(noticeOf(hour.html)?.text).toMatch(/^The clock moved from .* fell due\.$/);
    expect((await nowOf(h)) - start).toBeGreaterThanOrEqual(HOUR);
    expect((await nowOf(h)) - start).toBeLessThan(HOUR + 60_000);
    await submit(h, '/inspector/clock', '/inspector/clock/advance/day');
    expect((await nowOf(h)) - start).toBeGreaterThanOrEqual(25 * HOUR);
  });

  test('moving to a date (read as UTC) gets there; a date in the past is refused and changes nothing', async () => {
    const h = harness({ rateLimit: null });
    const target = new Date((await nowOf(h)) + 3 * 24 * HOUR);
    const local = target.toISOString().slice(0, 16); // as a datetime-local field sends it
    await submit(h, '/inspector/clock', '/inspector/clock/set', { at: local });
    expect(new Date(await nowOf(h)).toISOString().slice(0, 16)).toBe(local);
    const before = await nowOf(h);
    const past = await submit(h, '/inspector/clock', '/inspector/clock/set', {
      at: '2001-01-01T00:00',
    });
    expect(noticeOf(past.html)).toEqual({
      kind: 'bad',
      text: 'the clock only moves forward; set is in the past (set)',
    });
    expect((await nowOf(h)) - before).toBeLessThan(5000);
  });

  test('lists what fell due: a delivery retried by the move, linked to its log', async () => {
    const { h, ws, r, hook } = await jobCreatedHook((_req, n) => (n === 1 ? 500 : 200));
    await createJob(ws);
    await advance(h, 0);
    await r.waitFor(1);
    expect((await log(h, hook.id))[0].state).toBe('retrying');
    const landed = await submit(h, '/inspector/clock', '/inspector/clock/advance/hour');
    await r.waitFor(2);
    const [d] = await log(h, hook.id);
    expect(d.state).toBe('succeeded');
    expect(landed.html).toContain(`href="/inspector/webhooks/${hook.id}">deliveries ${d.id}</a>`);
    expect(landed.html).toContain('state: &quot;retrying&quot; → &quot;succeeded&quot;');
    expect(landed.html).toContain('deliveries updated 1');
    await linksResolve(h, landed);
  });

  test('a move needs its own form’s token', async () => {
    const h = harness({ rateLimit: null });
    const before = await nowOf(h);
    const page = await openOk(h, '/inspector/clock');
    await expectRefused(
      h,
      '/inspector/clock/advance/day',
      {},
      tokenFor(page.html, '/inspector/clock/advance/hour'),
    );
    expect((await nowOf(h)) - before).toBeLessThan(5000);
  });

  test('a datetime-local value is read as UTC; anything else goes as typed', () => {
    expect(instantOf('2030-05-01T10:20')).toBe('2030-05-01T10:20:00Z');
    expect(instantOf('2030-05-01T10:20:30')).toBe('2030-05-01T10:20:30Z');
    expect(instantOf('2030-05-01T10:20:30+02:00')).toBe('2030-05-01T10:20:30+02:00');
  });
});

describe("a workspace's page moves its clock alone", () => {
  const wsNow = async (h: ReturnType<typeof harness>, id: string) =>
    Date.parse((await h.admin.get(`/workspaces/${id}/clock`)).body.now);

  test("shows its clock; advancing a day there moves it, not the server's nor another workspace's", async () => {
    const h = harness({ rateLimit: null });
    const [ws, other] = [await h.workspace(), await h.workspace()];
    const path = `/inspector/workspaces/${ws.id}`;
    const page = await openOk(h, path);
    const shown = /<dd class="mono" id="workspace-now">([^<]+)<\/dd>/.exec(page.html)?.[1] ?? '';
    expect(Math.abs(Date.parse(shown) - (await wsNow(h, ws.id)))).toBeLessThan(5000);
    const start = await nowOf(h);
    const moved = await submit(h, path, `${path}/clock/advance/day`);
    expect(noticeOf(moved.html)?.text).toMatch(/^The workspace's clock moved from .* fell due\.$/);
    expect(moved.html).toContain('1 day');
    expect((await wsNow(h, ws.id)) - start).toBeGreaterThanOrEqual(24 * HOUR);
    expect((await nowOf(h)) - start).toBeLessThan(60_000);
    expect((await wsNow(h, other.id)) - start).toBeLessThan(60_000);
    await linksResolve(h, moved);
  });

  test("a token of one workspace's form does not move another's clock", async () => {
    const h = harness({ rateLimit: null });
    const [ws, other] = [await h.workspace(), await h.workspace()];
    const page = await openOk(h, `/inspector/workspaces/${ws.id}`);
    const before = await wsNow(h, other.id);
    await expectRefused(
      h,
      `/inspector/workspaces/${other.id}/clock/advance/day`,
      {},
      tokenFor(page.html, `/inspector/workspaces/${ws.id}/clock/advance/day`),
    );
    expect((await wsNow(h, other.id)) - before).toBeLessThan(5000);
  });
});
