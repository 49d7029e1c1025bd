import { describe, expect, test } from 'vitest';
import { historyAt } from '../../src/resources/hail/model';

// The storm model's climate and coherence: hail days fall where and when they do in the real hail
// belt (Texas to the Dakotas, spring, a smaller late-summer bump), and neighbouring places share
// their storms while distant ones do not.

const FROM = '2001-01-01';
const TO = '2025-12-31';

/** Points on a grid of `n` × `n` about a place, `stepDeg` apart. */
function around(lat: number, lon: number, n = 5, stepDeg = 0.15): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      out.push([lat + (i - (n - 1) / 2) * stepDeg, lon + (j - (n - 1) / 2) * stepDeg]);
    }
  }
  return out;
}

/** Hail days a year at a point, averaged over the points. */
function hailDaysAYear(points: [number, number][]): number {
  const total = points.reduce((n, [a, b]) => n + historyAt(a, b, FROM, TO).hail_events.length, 0);
  return total / points.length / 25;
}

const datesAt = (lat: number, lon: number) =>
  new Set(historyAt(lat, lon, FROM, TO).hail_events.map((e) => e.date));

/** Shared days over days at either (Jaccard). */
function shared(a: Set<string>, b: Set<string>): number {
  const both = [...a].filter((d) => b.has(d)).length;
  const either = new Set([...a, ...b]).size;
  return either === 0 ? 1 : both / either;
}

const MI_PER_DEG = 69;

describe('where hail falls', () => {
  const oklahoma = hailDaysAYear(around(35.47, -97.52));
  const kansas = hailDaysAYear(around(37.69, -97.34));

  test('Oklahoma and Kansas see hail more than once a year at a place, many times Seattle or Miami', () => {
    expect(oklahoma).toBeGreaterThan(1);
    expect(kansas).toBeGreaterThan(1);
    const seattle = hailDaysAYear(around(47.61, -122.33));
    const miami = hailDaysAYear(around(25.76, -80.19));
    expect(seattle).toBeLessThan(oklahoma / 10);
    expect(miami).toBeLessThan(oklahoma / 10);
  });

  test('the belt runs from Texas to the Dakotas: each sees more hail than the Atlantic coast', () => {
    const boston = hailDaysAYear(around(42.36, -71.06));
    const newYork = hailDaysAYear(around(40.71, -74.0));
    for (const [lat, lon] of [
      [32.78, -96.8], // Dallas
      [41.26, -95.94], // Omaha
      [43.55, -96.73], // Sioux Falls
      [46.81, -100.78], // Bismarck
    ] as const) {
      const there = hailDaysAYear(around(lat, lon));
      expect(there).toBeGreaterThan(3 * Math.max(boston, newYork));
    }
  });
});

describe('when hail falls', () => {
  // Every hail day over a wide stretch of the plains and the Midwest, by month.
  const byMonth = new Array<number>(12).fill(0);
  for (let lat = 30; lat <= 46; lat += 1) {
    for (let lon = -104; lon <= -88; lon += 1.5) {
      for (const e of historyAt(lat, lon, FROM, TO).hail_events) {
        const m = Number(e.date.slice(5, 7)) - 1;
        byMonth[m] = (byMonth[m] ?? 0) + 1;
      }
    }
  }
  const [jan, feb, , apr, may, jun, jul, aug, , , , dec] = byMonth as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const total = byMonth.reduce((s, n) => s + n, 0);

  test('spring is the peak: April to June hold most hail days, May many times January', () => {
    expect(total).toBeGreaterThan(1000);
    expect((apr + may + jun) / total).toBeGreaterThan(0.5);
    expect(may).toBeGreaterThan(10 * jan);
    expect(Math.max(...byMonth)).toBe(Math.max(apr, may, jun));
  });

  test('late summer has a smaller bump: August above July, below the spring peak', () => {
    expect(aug).toBeGreaterThan(jul);
    expect(aug).toBeLessThan(Math.max(apr, may, jun));
  });

  test('winter is quiet: December to February under a tenth of the year', () => {
    expect((dec + jan + feb) / total).toBeLessThan(0.1);
  });
});

describe('storms are places on a map', () => {
  const belt = around(36.5, -98, 6, 0.6);

  test('places half a mile apart share most of their hail days; places 300 miles apart few', () => {
    let near = 0;
    let far = 0;
    for (const [lat, lon] of belt) {
      const here = datesAt(lat, lon);
      near += shared(here, datesAt(lat + 0.5 / MI_PER_DEG, lon));
      far += shared(here, datesAt(lat + 300 / MI_PER_DEG, lon));
    }
    expect(near / belt.length).toBeGreaterThan(0.8);
    expect(far / belt.length).toBeLessThan(0.15);
  });

  test('closer places share more: sharing falls off with distance', () => {
    const at = (miles: number) =>
      belt.reduce(
        (s, [lat, lon]) => s + shared(datesAt(lat, lon), datesAt(lat, lon + miles / 55)),
        0,
      ) / belt.length;
    const [one, five, twenty, eighty] = [1, 5, 20, 80].map(at) as [number, number, number, number];
    expect(one).toBeGreaterThan(five);
    expect(five).toBeGreaterThan(twenty);
    expect(twenty).toBeGreaterThan(eighty);
  });
});
