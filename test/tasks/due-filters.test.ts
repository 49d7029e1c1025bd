import { describe, expect, test } from 'vitest';
import type { Harness, TestWorkspace } from '../support/harness';
import { addTask, advance, expectInvalid, idsOf, setup } from './setup';

// decisions.md: due_after is inclusive, due_before exclusive, both compared as wall-clock digits
// (an offset in the query is dropped like one on due_date); tasks with no due_date are left out.

const DUES = {
  lateOn13: '2026-05-13T23:59:59',
  midnight14: '2026-05-14T00:00:00',
  five14: '2026-05-14T05:00:00',
  nineThirty14: '2026-05-14T09:30:00',
  midnight15: '2026-05-15T00:00:00',
  none: null,
} as const;
type Due = keyof typeof DUES;

/** One task per due date, one second apart; answers a name → id map. */
async function tasksDue(h: Harness, ws: TestWorkspace): Promise<Record<Due, string>> {
  const ids = {} as Record<Due, string>;
  for (const [name, due_date] of Object.entries(DUES) as [Due, string | null][]) {
    ids[name] = (await addTask(ws, due_date ? { title: name, due_date } : { title: name })).id;
    await advance(h, 1);
  }
  return ids;
}

const ORDER: Due[] = ['none', 'midnight15', 'nineThirty14', 'five14', 'midnight14', 'lateOn13'];

describe('due_after and due_before', () => {
  test.each<[string, Record<string, string>, Due[]]>([
    [
      'a date after is inclusive of its midnight',
      { due_after: '2026-05-14' },
      ['midnight15', 'nineThirty14', 'five14', 'midnight14'],
    ],
    [
      'a date before is exclusive of its midnight',
      { due_before: '2026-05-15' },
      ['nineThirty14', 'five14', 'midnight14', 'lateOn13'],
    ],
    [
      'both together give a window',
      { due_after: '2026-05-14', due_before: '2026-05-15' },
      ['nineThirty14', 'five14', 'midnight14'],
    ],
    [
      'a date-time after is inclusive of that second',
      { due_after: '2026-05-14T09:30:00' },
      ['midnight15', 'nineThirty14'],
    ],
    [
      'a date-time before is exclusive of that second',
      { due_before: '2026-05-14T09:30:00' },
      ['five14', 'midnight14', 'lateOn13'],
    ],
    // Shifted to UTC, 09:30+09:00 is 00:30 and would let the 05:00 task in.
    [
      'an offset on due_after is dropped, not applied',
      { due_after: '2026-05-14T09:30:00+09:00' },
      ['midnight15', 'nineThirty14'],
    ],
    // Shifted to UTC, 09:30-05:00 is 14:30 and would let the 09:30 task in.
    [
      'an offset on due_before is dropped, not applied',
      {
        due_before: '2026-05-14T09:30:00-05:00',
      },
      ['five14', 'midnight14', 'lateOn13'],
    ],
    // A + sent unencoded reaches the server as a space; URLSearchParams writes a space as +.
    [
      'an offset whose + arrived as a space is dropped too',
      { due_after: '2026-05-14T09:30:00 09:00' },
      ['midnight15', 'nineThirty14'],
    ],
    [
      'Z on due_after is dropped',
      { due_after: '2026-05-14T09:30:00Z' },
      ['midnight15', 'nineThirty14'],
    ],
    [
      'fractions on due_before are dropped',
      { due_before: '2026-05-14T09:30:00.999' },
      ['five14', 'midnight14', 'lateOn13'],
    ],
    [
      'a window with nothing in it is empty',
      {
        due_after: '2026-05-14T09:30:01',
        due_before: '2026-05-15T00:00:00',
      },
      [],
    ],
  ])('%s', async (_, query, expected) => {
    const { h, ws } = await setup('empty');
    const ids = await tasksDue(h, ws);
    const res = await ws.api.get('/tasks', { query });
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res)).toEqual(ORDER.filter((d) => expected.includes(d)).map((d) => ids[d]));
  });

  test('tasks with no due_date are left out by either filter, and listed without them', async () => {
    const { h, ws } = await setup('empty');
    const ids = await tasksDue(h, ws);
    const after = await ws.api.get('/tasks', { query: { due_after: '1900-01-01' } });
    expect(idsOf(after)).not.toContain(ids.none);
    expect(idsOf(after)).toHaveLength(5);
    const before = await ws.api.get('/tasks', { query: { due_before: '9999-12-31' } });
    expect(idsOf(before)).not.toContain(ids.none);
    expect(idsOf(before)).toHaveLength(5);
    expect(idsOf(await ws.api.get('/tasks'))).toContain(ids.none);
  });

  test('a due_date sent with an offset is found by its own digits', async () => {
    const { ws } = await setup('empty');
    const task = await addTask(ws, { title: 't', due_date: '2026-05-14T23:30:00-05:00' });
    const day = await ws.api.get('/tasks', {
      query: { due_after: '2026-05-14', due_before: '2026-05-15' },
    });
    expect(idsOf(day)).toEqual([task.id]);
  });

  test('GET /appointments takes the due filters too', async () => {
    const { h, ws } = await setup('empty');
    const appt = await addTask(ws, {
      appointment_type: 'inspection',
      due_date: '2026-05-14T10:00',
    });
    await advance(h, 1);
    await addTask(ws, { title: 'task', due_date: '2026-05-14T11:00' });
    await addTask(ws, { appointment_type: 'inspection', due_date: '2026-05-15T10:00' });
    const res = await ws.api.get('/appointments', {
      query: { due_after: '2026-05-14', due_before: '2026-05-15' },
    });
    expect(idsOf(res)).toEqual([appt.id]);
  });

  test.each(['due_after', 'due_before'])('%s with a bad value is 400 naming it', async (name) => {
    const { ws } = await setup('empty');
    for (const value of [
      'tomorrow',
      '2026-02-30',
      '2026-05-14T25:00:00',
      '2026-13-01',
      '1778751000',
      '',
    ]) {
      const res = await ws.api.get('/tasks', { query: { [name]: value }, invalid: true });
      expect(res.status, `${name}=${value}`).toBe(400);
      expectInvalid(res, name);
    }
  });
});
