import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type HailEvent,
  HIGH_SEVERE_HAIL_PROBABILITY,
  historyAt,
  swathsNear,
} from '../../src/resources/hail/model';
import { HAIL_SIZES } from '../../src/resources/hail/sizes';
import { REPORT_RADIUS_MI } from '../../src/resources/hail/track';

// The hail model's rules at any point and any dates (spec, Hail report: confidence is confirmed
// when a ground report backs the size, likely, or radar when radar alone saw it), proved over many
// points of the contiguous United States and many windows of dates.

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const FIRST = Date.UTC(2000, 0, 1);
const LAST = Date.UTC(2030, 11, 31);

/** A point of the contiguous US box, the hail belt weighted in (so events are many). */
const point = fc.oneof(
  fc.record({
    lat: fc.double({ min: 25, max: 49, noNaN: true }),
    lon: fc.double({ min: -124, max: -67, noNaN: true }),
  }),
  fc.record({
    lat: fc.double({ min: 31, max: 46, noNaN: true }),
    lon: fc.double({ min: -103, max: -94, noNaN: true }),
  }),
);
/** A window of dates within the archive, from `least` days to three years long. */
const windowOf = (least: number) =>
  fc
    .tuple(fc.integer({ min: FIRST, max: LAST }), fc.integer({ min: least, max: 3 * 365 }))
    .map(([start, days]) => ({
      from: day(start),
      to: day(Math.min(LAST, start + days * 86_400_000)),
    }));
const window = windowOf(0);

/** The spec's confidence rule, read independently of the model's code. */
function expectRuled(e: HailEvent): void {
  const reported = e.ground_report_count > 0;
  // The report fields are all there or all null, with the count.
  expect(e.ground_report_size_in === null).toBe(!reported);
  expect(e.ground_report_distance_mi === null).toBe(!reported);
  // The radar fields come together.
  expect(e.radar_estimated_size_in === null).toBe(e.severe_hail_probability === null);
  const backed = reported && (e.ground_report_size_in ?? 0) >= e.size_in;
  if (backed) {
    expect(e.confidence).toBe('confirmed');
  } else if (reported) {
    expect(e.confidence).toBe('likely');
  } else {
    expect(e.radar_estimated_size_in).not.toBeNull();
    const high = (e.severe_hail_probability ?? 0) >= HIGH_SEVERE_HAIL_PROBABILITY;
    expect(e.confidence).toBe(high ? 'likely' : 'radar');
  }
  expect(e.confirmed_by_ground_report).toBe(e.confidence === 'confirmed');
  // The size is the radar's at the place; unseen by radar, the report's (which then backs it).
  expect(e.size_in).toBe(e.radar_estimated_size_in ?? e.ground_report_size_in);
  expect(HAIL_SIZES).toContain(e.size_in);
  if (reported) {
    expect(HAIL_SIZES).toContain(e.ground_report_size_in);
    expect(e.ground_report_distance_mi).toBeGreaterThanOrEqual(0);
    expect(e.ground_report_distance_mi).toBeLessThanOrEqual(REPORT_RADIUS_MI);
  }
  if (e.severe_hail_probability !== null) {
    expect(e.severe_hail_probability).toBeGreaterThanOrEqual(0);
    expect(e.severe_hail_probability).toBeLessThanOrEqual(1);
  }
}

const newestFirst = (dates: string[]) => [...dates].sort().reverse();

describe('the hail model', () => {
  test('every hail event follows the confidence rule, its report and radar fields consistent with it', () => {
    let seen = 0;
    const counts = { confirmed: 0, likely: 0, radar: 0 };
    fc.assert(
      fc.property(point, windowOf(365), ({ lat, lon }, { from, to }) => {
        for (const e of historyAt(lat, lon, from, to).hail_events) {
          expectRuled(e);
          counts[e.confidence]++;
          seen++;
        }
      }),
      { numRuns: 500, seed: 16 },
    );
    // The rule was exercised in all three of its outcomes, not vacuously.
    expect(seen).toBeGreaterThan(300);
    expect(Math.min(counts.confirmed, counts.likely, counts.radar)).toBeGreaterThan(20);
  });

  test('one event a day, newest first, within the dates asked; damaging wind is 58 mph or more', () => {
    fc.assert(
      fc.property(point, window, ({ lat, lon }, { from, to }) => {
        const h = historyAt(lat, lon, from, to);
        for (const list of [h.hail_events, h.wind_events]) {
          const dates = list.map((e) => e.date);
          expect(new Set(dates).size).toBe(dates.length);
          expect(dates).toEqual(newestFirst(dates));
          for (const d of dates) {
            expect(d >= from && d <= to).toBe(true);
          }
        }
        for (const w of h.wind_events) {
          expect(Number.isInteger(w.max_gust_mph)).toBe(true);
          expect(w.max_gust_mph).toBeGreaterThanOrEqual(58);
        }
      }),
      { numRuns: 200, seed: 17 },
    );
  });

  test('a day reads the same whatever window it is asked in (storm lists and hail history agree)', () => {
    let seen = 0;
    fc.assert(
      fc.property(
        point,
        windowOf(365),
        fc.integer({ min: 0, max: 400 }),
        ({ lat, lon }, { from, to }, cut) => {
          const whole = historyAt(lat, lon, from, to);
          const middle = day(Math.min(Date.parse(to), Date.parse(from) + cut * 86_400_000));
          const early = historyAt(lat, lon, from, middle);
          const late = historyAt(lat, lon, middle, to);
          expect(whole.hail_events.filter((e) => e.date <= middle)).toEqual(early.hail_events);
          expect(whole.hail_events.filter((e) => e.date >= middle)).toEqual(late.hail_events);
          expect(whole.wind_events.filter((e) => e.date <= middle)).toEqual(early.wind_events);
          expect(whole.wind_events.filter((e) => e.date >= middle)).toEqual(late.wind_events);
          seen += early.hail_events.length + late.hail_events.length;
        },
      ),
      { numRuns: 200, seed: 18 },
    );
    expect(seen).toBeGreaterThan(100);
  });

  test('the same point always gives the same history', () => {
    fc.assert(
      fc.property(point, window, ({ lat, lon }, { from, to }) => {
        expect(historyAt(lat, lon, from, to)).toEqual(historyAt(lat, lon, from, to));
      }),
      { numRuns: 100, seed: 19 },
    );
  });

  test('an empty or reversed window, or one before the archive, has no events', () => {
    const { latitude, longitude } = { latitude: 35.4676, longitude: -97.5164 };
    const none = { hail_events: [], wind_events: [] };
    expect(historyAt(latitude, longitude, '2025-06-01', '2025-05-01')).toEqual(none);
    expect(historyAt(latitude, longitude, '1990-01-01', '1999-12-31')).toEqual(none);
    expect(historyAt(latitude, longitude, 'not a date', '2025-05-01')).toEqual(none);
    expect(historyAt(latitude, longitude, '1990-01-01', '2025-12-31')).toEqual(
      historyAt(latitude, longitude, '2000-01-01', '2025-12-31'),
    );
  });

  test('every hail day at a point lies on a swath of that day that reaches it', () => {
    fc.assert(
      fc.property(point, window, ({ lat, lon }, { from, to }) => {
        for (const e of historyAt(lat, lon, from, to).hail_events) {
          const swaths = swathsNear(lat, lon, 0, e.date, e.date);
          expect(swaths.length).toBeGreaterThan(0);
          for (const s of swaths) {
            expect(s.date).toBe(e.date);
          }
        }
      }),
      { numRuns: 100, seed: 20 },
    );
  });

  test('swaths near a point are hail swaths of the dates asked, newest first, each a centre line of [lat, lon] points', () => {
    const found = swathsNear(35.4676, -97.5164, 50, '2024-01-01', '2025-12-31');
    expect(found.length).toBeGreaterThan(10);
    const dates = found.map((s) => s.date);
    expect(dates).toEqual(newestFirst(dates));
    for (const s of found) {
      expect(s.date >= '2024-01-01' && s.date <= '2025-12-31').toBe(true);
      expect(s.id.startsWith(`${s.date}-h`)).toBe(true);
      expect(HAIL_SIZES).toContain(s.peak_size_in);
      expect(s.width_mi).toBeGreaterThan(0);
      expect(s.path.length).toBeGreaterThanOrEqual(2);
      for (const [a, b] of s.path) {
        expect(Math.abs(a)).toBeLessThanOrEqual(90);
        expect(Math.abs(b)).toBeLessThanOrEqual(180);
      }
    }
    // A wider reach finds every swath a narrower one found, and more.
    const near = swathsNear(35.4676, -97.5164, 5, '2024-01-01', '2025-12-31');
    expect(found.map((s) => s.id)).toEqual(expect.arrayContaining(near.map((s) => s.id)));
    expect(found.length).toBeGreaterThan(near.length);
    expect(Object.isFrozen(found[0])).toBe(true);
  });
});
