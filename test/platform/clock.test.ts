import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Store } from '../../src/store';
import { widgetRoutes } from '../support/fixture-routes';
import { harness } from '../support/harness';

describe('/__admin/clock', () => {
  test('GET reads the clock, which runs with real time', async () => {
    const h = harness();
    const res = await h.admin.get('/clock');
    expect(res.status).toBe(200);
    expect(Math.abs(Date.parse(res.body.now) - Date.now())).toBeLessThan(5000);
  });

  test('advance_seconds moves it forward, and new records carry the new time', async () => {
    const h = harness({}, { extend: widgetRoutes });
    const ws = await h.workspace();
    const before = Date.parse((await h.admin.get('/clock')).body.now);
    const moved = await h.admin.post('/clock', { advance_seconds: 30 * 24 * 3600 });
    expect(moved.status).toBe(200);
    const after = Date.parse(moved.body.now);
    expect(after - before).toBeGreaterThanOrEqual(30 * 24 * 3600 * 1000);
    const widget = await ws.api.post('/widgets', { name: 'later' });
    expect(Date.parse(widget.body.created_at)).toBeGreaterThanOrEqual(after);
  });

  test('set moves it to an instant', async () => {
    const h = harness();
    const res = await h.admin.post('/clock', { set: '2030-01-01T00:00:00.000Z' });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.now) - Date.parse('2030-01-01T00:00:00.000Z')).toBeLessThan(2000);
  });

  test('set to the now just read is no error: the clock stays where it is', async () => {
    const h = harness();
    const now = (await h.admin.get('/clock')).body.now;
    const res = await h.admin.post('/clock', { set: now });
    expect(res.status, res.text).toBe(200);
    expect(Date.parse(res.body.now)).toBeGreaterThanOrEqual(Date.parse(now));
  });

  test('an empty JSON body is no body: 400 naming advance_seconds, not malformed JSON', async () => {
    const h = harness();
    const res = await h.admin.raw('POST', '/clock', {
      headers: { 'Content-Type': 'application/json' },
      body: '',
      invalid: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('advance_seconds');
  });

  test.each([
    [{}, 'advance_seconds'],
    [{ advance_seconds: 5, set: '2031-01-01T00:00:00Z' }, 'set'],
    [{ advance_seconds: -5 }, 'advance_seconds'],
    [{ advance_seconds: 'soon' }, 'advance_seconds'],
    [{ set: 'tomorrow' }, 'set'],
    [{ set: '2001-01-01T00:00:00Z' }, 'set'],
  ])('%j is 400 invalid_request naming %s', async (body, field) => {
    const h = harness();
    const res = await h.admin.post('/clock', body, { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.field).toBe(field);
  });

  test('work that falls due runs in time order, each task at its own time, before the answer', async () => {
    const h = harness();
    const { scheduler, clock } = h.rt;
    const start = clock.nowMs();
    const ran: [string, number][] = [];
    const note = (name: string) => () => {
      ran.push([name, Math.round((clock.nowMs() - start) / 1000)]);
    };
    scheduler.schedule('b', start + 20_000, note('b'));
    scheduler.schedule('a', start + 5_000, () => {
      note('a')();
      scheduler.schedule('a2', clock.nowMs() + 1_000, note('a2'));
    });
    scheduler.schedule('c', start + 90_000, note('c'));
    scheduler.schedule('replaced', start + 1_000, note('never'));
    scheduler.schedule('replaced', start + 10_000, note('replaced'));
    await h.admin.post('/clock', { advance_seconds: 60 });
    expect(ran).toEqual([
      ['a', 5],
      ['a2', 6],
      ['replaced', 10],
      ['b', 20],
    ]);
    expect(scheduler.has('c')).toBe(true);
  });

  test('a failing task does not stop the others', async () => {
    const logged: string[] = [];
    const h = harness({ log: (line) => logged.push(line) });
    const { scheduler, clock } = h.rt;
    const ran: string[] = [];
    scheduler.schedule('bad', clock.nowMs() + 1000, () => {
      throw new Error('task failed');
    });
    scheduler.schedule('good', clock.nowMs() + 2000, () => {
      ran.push('good');
    });
    expect((await h.admin.post('/clock', { advance_seconds: 5 })).status).toBe(200);
    expect(ran).toEqual(['good']);
    expect(logged.join()).toContain('bad');
  });

  test('the clock keeps its place across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-clock-'));
    try {
      const first = await Store.open(join(dir, 'data.json'));
      await harness({}, { store: first.store }).admin.post('/clock', {
        advance_seconds: 86_400 * 3,
      });
      await first.store.close();
      const second = await Store.open(join(dir, 'data.json'));
      const now = (await harness({}, { store: second.store }).admin.get('/clock')).body.now;
      expect(Date.parse(now) - Date.now()).toBeGreaterThan(86_400 * 3 * 1000 - 5000);
      await second.store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
