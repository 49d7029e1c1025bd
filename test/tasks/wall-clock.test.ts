import { describe, expect, test } from 'vitest';
import { addTask, expectInvalid, setup } from './setup';

// spec, Tasks: due_date is the local time the crew reads; an offset sent is dropped and the
// clock digits kept, never shifted. decisions.md: a date is its midnight, HH:MM gains :00,
// fractions are dropped, stored as YYYY-MM-DDTHH:MM:SS.
const accepted: [string, string][] = [
  ['2026-05-14T09:30:00', '2026-05-14T09:30:00'],
  ['2026-05-14T09:30:00-05:00', '2026-05-14T09:30:00'],
  ['2026-05-14T09:30:00+09:00', '2026-05-14T09:30:00'],
  ['2026-05-14T09:30:00Z', '2026-05-14T09:30:00'],
  ['2026-05-14T09:30:00.123', '2026-05-14T09:30:00'],
  ['2026-05-14T09:30:00.999Z', '2026-05-14T09:30:00'],
  ['2026-05-14T09:30:00.5-05:00', '2026-05-14T09:30:00'],
  ['2026-05-14T09:30', '2026-05-14T09:30:00'],
  ['2026-05-14T09:30-05:00', '2026-05-14T09:30:00'],
  ['2026-05-14', '2026-05-14T00:00:00'],
  // digits that a shift to UTC would carry into another day stay on their own day
  ['2026-05-14T23:30:00-05:00', '2026-05-14T23:30:00'],
  ['2026-05-14T01:00:00+09:00', '2026-05-14T01:00:00'],
  ['2026-12-31T23:59:59-12:00', '2026-12-31T23:59:59'],
  ['2028-02-29T12:00:00', '2028-02-29T12:00:00'],
];

const refused = [
  '2026-02-30',
  '2026-02-30T09:30:00',
  '2027-02-29',
  '2026-13-01',
  '2026-05-14T25:00:00',
  '2026-05-14T24:00:00',
  '2026-05-14T09:60:00',
  '2026-05-14T09:30:61',
  '2026-05-14T9:30',
  'tomorrow',
  '14/05/2026',
  '1778751000',
  '',
  // a space is no offset sign in a body (only a query turns an unencoded + into one)
  '2026-05-14T09:30:00 05:00',
];

describe('due_date on create', () => {
  test.each(accepted)('%j is stored as %j', async (sent, stored) => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Inspect', due_date: sent });
    expect(task.due_date).toBe(stored);
  });

  test.each(refused)('%j is 400 field due_date', async (sent) => {
    const { ws } = await setup();
    const res = await ws.api.post(
      '/tasks',
      { title: 'Inspect', due_date: sent },
      { invalid: true },
    );
    expectInvalid(res, 'due_date');
  });

  test('a number is 400 field due_date', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/tasks', { title: 't', due_date: 20260514 }, { invalid: true });
    expectInvalid(res, 'due_date');
  });

  test('GET returns the same digits that were sent, with the offset dropped', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Inspect', due_date: '2026-05-14T09:30:00-05:00' });
    const got = await ws.api.get(`/tasks/${task.id}`);
    expect(got.body.due_date).toBe('2026-05-14T09:30:00');
    const listed = await ws.api.get('/tasks', { query: { limit: 1 } });
    expect(listed.body.data[0]).toMatchObject({ id: task.id, due_date: '2026-05-14T09:30:00' });
  });

  test('POST /appointments keeps the wall-clock digits too', async () => {
    const { ws } = await setup();
    const task = await addTask(
      ws,
      { appointment_type: 'inspection', due_date: '2026-05-14T16:00:00+02:00' },
      '/appointments',
    );
    expect(task.due_date).toBe('2026-05-14T16:00:00');
  });
});

describe('due_date on update', () => {
  test.each(accepted)('%j is stored as %j', async (sent, stored) => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Inspect' });
    const res = await ws.api.patch(`/tasks/${task.id}`, { due_date: sent });
    expect(res.status, res.text).toBe(200);
    expect(res.body.due_date).toBe(stored);
    expect((await ws.api.get(`/tasks/${task.id}`)).body.due_date).toBe(stored);
  });

  test.each(refused)('%j is 400 field due_date and the stored value stays', async (sent) => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Inspect', due_date: '2026-05-14T09:30:00' });
    const res = await ws.api.patch(`/tasks/${task.id}`, { due_date: sent }, { invalid: true });
    expectInvalid(res, 'due_date');
    expect((await ws.api.get(`/tasks/${task.id}`)).body.due_date).toBe('2026-05-14T09:30:00');
  });

  test('end_date is checked against the wall-clock day, not a shifted one', async () => {
    const { ws } = await setup();
    // Shifted to UTC, 23:30-05:00 would be the 15th and this end_date would be refused.
    const res = await ws.api.post('/tasks', {
      title: 'Build',
      due_date: '2026-05-14T23:30:00-05:00',
      end_date: '2026-05-14',
    });
    expect(res.status, res.text).toBe(201);
    // Shifted, 01:00+09:00 would be the 13th and this end_date accepted.
    const early = await ws.api.post('/tasks', {
      title: 'Build',
      due_date: '2026-05-14T01:00:00+09:00',
      end_date: '2026-05-13',
    });
    expectInvalid(early, 'end_date');
  });
});
