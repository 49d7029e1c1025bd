import { describe, expect, test } from 'vitest';
import { fresh, lookup } from './setup';

// decisions.md, Geocoding: a one-line address is read in the forms people type it; a state may
// be a code or a name, with or without a comma before it. Each form of one address is the same
// place, so it reads the same history.

const FORMS = [
  '1200 N Walker Ave, Oklahoma City, OK 73103',
  '1200 N Walker Ave, Oklahoma City OK 73103',
  '1200 N Walker Ave, Oklahoma City, Oklahoma 73103',
  '1200 N Walker Ave, Oklahoma City Oklahoma 73103',
  '1200 N Walker Ave, 73103',
  '1200  n walker ave ,  Oklahoma City ,  ok 73103-4411',
];

describe('one address, typed every way', () => {
  test('each form is placed on the same spot and reads the same history', async () => {
    const { ws } = await fresh();
    const reports = [];
    for (const address of FORMS) {
      reports.push(await lookup(ws, { address }));
    }
    const [first, ...rest] = reports;
    for (const report of rest) {
      expect(report.latitude).toBe(first.latitude);
      expect(report.longitude).toBe(first.longitude);
      expect(report.hail_events).toEqual(first.hail_events);
      expect(report.wind_events).toEqual(first.wind_events);
    }
  });

  test.each([
    '1200 N Walker Ave, Oklahoma City Oklahoma',
    '1200 N Walker Ave, Oklahoma City, Oklahoma',
    '1200 N Walker Ave, Oklahoma City OK',
  ])('%j (a city and a state, no ZIP) is placed in that city', async (address) => {
    const { ws } = await fresh();
    const report = await lookup(ws, { address });
    expect(report.address).toMatch(/, Oklahoma City, OK \d{5}$/);
  });
});
