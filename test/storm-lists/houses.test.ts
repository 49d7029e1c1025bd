import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type Geography,
  geography,
  milesBetween,
  type ZipPlace,
} from '../../src/resources/common/geo';
import { stateCode } from '../../src/resources/common/us-states';
import { shapeOf } from '../../src/resources/storm-lists/area';
import { houseAddress, houseCount, houseFacts } from '../../src/resources/storm-lists/houses';

// The pure parts of a build: the areas (decisions: storm lists, a circle or a drawn polygon) and
// the properties svc knows of (each ZIP's houses, always the same, with coherent owner and
// mailing data).

let geo: Geography;
let zips: ZipPlace[];
beforeAll(async () => {
  geo = await geography();
  zips = ['73102', '75201', '67202', '80202', '55401', '10001', '98101', '33131'].map(
    (code) => geo.zip(code) as ZipPlace,
  );
});

describe('areas', () => {
  test('a circle holds what lies within its radius, and is pi r squared', () => {
    const c = shapeOf({ kind: 'radius', latitude: 35.47, longitude: -97.52, radius_mi: 10 });
    expect(c.sqMi).toBeCloseTo(Math.PI * 100, 6);
    expect(c.contains(35.47, -97.52)).toBe(true);
    expect(c.contains(35.47 + 9.9 / 69.05, -97.52)).toBe(true);
    expect(c.contains(35.47 + 10.1 / 69.05, -97.52)).toBe(false);
  });

  test('a drawn square has its area, holds its inside and not its outside', () => {
    const s = shapeOf({
      kind: 'drawn',
      polygon: [
        [35, -97],
        [35, -96.9],
        [35.1, -96.9],
        [35.1, -97],
      ],
    });
    const expected = 0.1 * 69.05 * 0.1 * 69.05 * Math.cos((35.05 * Math.PI) / 180);
    expect(s.sqMi / expected).toBeCloseTo(1, 2);
    expect(s.contains(35.05, -96.95)).toBe(true);
    expect(s.contains(35.15, -96.95)).toBe(false);
    expect(s.reach).toBeCloseTo(milesBetween(35.05, -96.95, 35, -97), 6);
  });

  test('a concave shape leaves out its notch', () => {
    // An L: the square's upper-right quarter cut away.
    const l = shapeOf({
      kind: 'drawn',
      polygon: [
        [35, -97],
        [35, -96.8],
        [35.1, -96.8],
        [35.1, -96.9],
        [35.2, -96.9],
        [35.2, -97],
      ],
    });
    expect(l.contains(35.05, -96.85)).toBe(true);
    expect(l.contains(35.15, -96.95)).toBe(true);
    expect(l.contains(35.15, -96.85)).toBe(false);
  });
});

describe('houses', () => {
  test('a ZIP holds 150 to 449 houses, at addresses of their own, the same every time', () => {
    for (const zip of zips) {
      const n = houseCount(zip);
      expect(n).toBeGreaterThanOrEqual(150);
      expect(n).toBeLessThan(450);
      const lines = Array.from({ length: n }, (_v, i) => houseAddress(zip, i));
      expect(new Set(lines).size).toBe(n);
      expect(lines[7]).toBe(houseAddress(zip, 7));
      expect(lines[0]).toMatch(/^\d+ [A-Z][A-Za-z ]+ [A-Z][a-z]+$/);
    }
  });

  test('what the records say of a house is coherent, whatever the house', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 449 }), (z, i) => {
        const zip = zips[z] as ZipPlace;
        const address = houseAddress(zip, i);
        const facts = houseFacts(zip, i, address, geo);
        expect(houseFacts(zip, i, address, geo)).toEqual(facts);
        expect(facts.is_residential).toBe(
          !['commercial', 'vacant_land'].includes(facts.property_use),
        );
        expect(facts.year_built === null).toBe(facts.property_use === 'vacant_land');
        expect(facts.mail_deliverable).toBe(facts.mail_exclude_reason === null);
        if (facts.mail_deliverable) {
          expect(facts.owner_name).not.toBeNull();
          expect(stateCode(facts.mailing_state ?? '')).toBe(facts.mailing_state);
          expect(facts.mailing_zip).toMatch(/^\d{5}$/);
        }
        if (facts.owner_occupied && facts.mail_exclude_reason !== 'no_mailing_address') {
          expect([facts.mailing_address, facts.mailing_city]).toEqual([address, zip.city]);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('about one house in ten is unusable for mail, for each reason svc names', () => {
    const reasons = new Map<string, number>();
    let total = 0;
    for (const zip of zips) {
      for (let i = 0; i < houseCount(zip); i++) {
        const facts = houseFacts(zip, i, houseAddress(zip, i), geo);
        total++;
        if (facts.mail_exclude_reason !== null) {
          reasons.set(facts.mail_exclude_reason, (reasons.get(facts.mail_exclude_reason) ?? 0) + 1);
        }
      }
    }
    const refused = [...reasons.values()].reduce((a, b) => a + b, 0);
    expect(refused / total).toBeGreaterThan(0.04);
    expect(refused / total).toBeLessThan(0.15);
    expect([...reasons.keys()].sort()).toEqual([
      'foreign_mailing_address',
      'generic_owner_name',
      'incomplete_mailing_address',
      'no_mailing_address',
      'no_owner_name',
    ]);
  });
});
