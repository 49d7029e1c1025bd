import { DAY, iso, type Seeding, type SeedStep } from '../../platform/family';
import { addDays, centralDate } from '../common/central-time';
import { type Geography, milesBetween } from '../common/geo';
import { type Swath, swathsNear } from '../hail/api';
import type { Area } from './area';
import { finishBuild, recentKeys } from './finish';
import type { StormList, StormListProperty } from './schema';
import { BUILD_SECONDS, DEFAULT_DEDUPE_DAYS } from './service';

// The demo workspace's storm lists: built as the app builds them, from the same hail model as
// hail history, where the market's two biggest storms of the past year passed (an auto list the
// night after each, round the spot; a manual one drawn round it over a few days), and one that
// found nothing. Made last (`finish`), so the faker draws of the other families stay as they were.

interface Plan {
  name: string;
  source: 'auto' | 'manual';
  window_from: string;
  window_to: string;
  min_size_in: number;
  property_cap: number;
  area: Area;
}

/** How far from the market a storm may have passed to be the market's. */
const MARKET_MI = 30;
const HOUR = DAY / 24;

const inches = (n: number) => `${n.toFixed(2)}"`;

/** How near a ZIP's centre a point must be for the houses of a list round it to be there. */
const HOUSES_MI = 2;

/**
 * The point of a swath's centre line nearest the market where people live (checked every tenth of
 * a segment), or none: a storm that crossed only empty country near the market builds no list.
 */
function nearestPoint(
  s: Seeding,
  geo: Geography,
  swath: Swath,
): { latitude: number; longitude: number } | undefined {
  const { latitude: lat, longitude: lon } = s.market;
  let best: { latitude: number; longitude: number; miles: number } | undefined;
  swath.path.forEach(([aLat, aLon], k) => {
    const [bLat, bLon] = swath.path[k + 1] ?? [aLat, aLon];
    for (let f = 0; f <= 1; f += 0.1) {
      const p = { latitude: aLat + f * (bLat - aLat), longitude: aLon + f * (bLon - aLon) };
      const miles = milesBetween(lat, lon, p.latitude, p.longitude);
      if (
        miles <= MARKET_MI &&
        (best === undefined || miles < best.miles) &&
        geo.within(p.latitude, p.longitude, HOUSES_MI).length > 0
      ) {
        best = { ...p, miles };
      }
    }
  });
  return best && { latitude: best.latitude, longitude: best.longitude };
}

interface Storm {
  swath: Swath;
  /** Where its lists are drawn: the point of it nearest the market where people live. */
  at: { latitude: number; longitude: number };
}

/**
 * The market's two biggest hail days of the year to `to` (each its biggest swath), looking a
 * year further back, up to three, while it has fewer: a quiet market still shows its lists. A
 * storm that crossed only empty country near the market is passed over: its lists would be empty.
 */
function stormsOf(s: Seeding, geo: Geography, to: string): Storm[] {
  const byDay = new Map<string, Storm>();
  for (let year = 0; year < 3 && byDay.size < 2; year++) {
    const end = addDays(to, -365 * year);
    const near = swathsNear(
      s.market.latitude,
      s.market.longitude,
      MARKET_MI,
      addDays(end, -364),
      end,
    );
    for (const swath of near) {
      const kept = byDay.get(swath.date)?.swath;
      if (swath.peak_size_in < 1 || (kept && swath.peak_size_in <= kept.peak_size_in)) {
        continue;
      }
      const at = nearestPoint(s, geo, swath);
      if (at) {
        byDay.set(swath.date, { swath, at });
      }
    }
  }
  return [...byDay.values()]
    .sort(
      (a, b) =>
        b.swath.peak_size_in - a.swath.peak_size_in || (a.swath.date < b.swath.date ? 1 : -1),
    )
    .slice(0, 2);
}

/** A quiet week in the market: no hail of `size` near it. */
function quietWeek(s: Seeding, from: string, to: string, size: number): string | undefined {
  const { latitude, longitude } = s.market;
  for (let start = from; addDays(start, 6) <= to; start = addDays(start, 7)) {
    const swaths = swathsNear(latitude, longitude, 10, start, addDays(start, 6));
    if (swaths.every((w) => w.peak_size_in < size)) {
      return start;
    }
  }
  return undefined;
}

/** An octagon `miles` round a point: the shape a person draws round the damage. */
function drawnAround(at: { latitude: number; longitude: number }, miles: number): Area {
  const east = 69.05 * Math.cos((at.latitude * Math.PI) / 180);
  const polygon: [number, number][] = [];
  for (let k = 0; k < 8; k++) {
    const angle = (k * Math.PI) / 4;
    polygon.push([
      Math.round((at.latitude + (Math.sin(angle) * miles) / 69.05) * 1e5) / 1e5,
      Math.round((at.longitude + (Math.cos(angle) * miles) / east) * 1e5) / 1e5,
    ]);
  }
  return { kind: 'drawn', polygon };
}

function plans(s: Seeding, geo: Geography): Plan[] {
  const to = centralDate(s.until - DAY);
  const from = addDays(to, -364);
  const out: Plan[] = [];
  const city = s.market.city;
  stormsOf(s, geo, to)
    .sort((a, b) => (a.swath.date < b.swath.date ? -1 : 1))
    .forEach(({ swath, at }, k) => {
      const min = swath.peak_size_in >= 2 ? 1.25 : 1;
      out.push({
        name: `Nightly hail ${inches(min)}+ ${swath.date}`,
        source: 'auto',
        window_from: swath.date,
        window_to: swath.date,
        min_size_in: min,
        property_cap: k === 0 ? 120 : 600,
        area: { kind: 'radius', ...at, radius_mi: 6 },
      });
      out.push({
        name: `${city} hail ${inches(1)}+ week of ${swath.date}`,
        source: 'manual',
        window_from: addDays(swath.date, -2),
        window_to: addDays(swath.date, 1) <= to ? addDays(swath.date, 1) : swath.date,
        min_size_in: 1,
        property_cap: 400,
        area: drawnAround(at, 9),
      });
    });
  const quiet = quietWeek(s, from, to, 3);
  if (quiet !== undefined) {
    out.push({
      name: `${city} giant hail ${inches(3)}+`,
      source: 'manual',
      window_from: quiet,
      window_to: addDays(quiet, 6),
      min_size_in: 3,
      property_cap: 500,
      area: {
        kind: 'radius',
        latitude: s.market.latitude,
        longitude: s.market.longitude,
        radius_mi: 10,
      },
    });
  }
  return out;
}

/** When a plan's list was built: the afternoon after its window, before the seed's horizon. */
function builtMs(s: Seeding, plan: Plan): number {
  const after =
    Date.parse(`${plan.window_to}T00:00:00.000Z`) + DAY + (plan.source === 'auto' ? 9 : 20) * HOUR;
  return Math.min(after, s.until - HOUR);
}

export function stormListSeed(geo: Geography): SeedStep {
  return {
    finish(s) {
      if (s.profile !== 'demo') {
        return;
      }
      const ordered = plans(s, geo).sort((a, b) => builtMs(s, a) - builtMs(s, b));
      for (const plan of ordered) {
        const done = builtMs(s, plan);
        const asked: StormList = {
          id: s.faker.string.uuid(),
          object: 'storm_list',
          ...plan,
          status: 'building',
          area_kind: plan.area.kind,
          territory_id: null,
          clipped_area_sq_mi: 0,
          property_count: 0,
          skipped_duplicates: 0,
          dedupe_days: DEFAULT_DEDUPE_DAYS,
          credits_spent: 0,
          total_available: 0,
          storm_date: null,
          built_at: null,
          created_at: iso(done - BUILD_SECONDS * 1000),
          updated_at: iso(done - BUILD_SECONDS * 1000),
          build_due_at: iso(done),
        };
        const taken = recentKeys(
          s.all('storm_lists'),
          s.all('storm_list_properties'),
          asked.dedupe_days,
          done,
        );
        const made: StormListProperty[] = [];
        const list = finishBuild(
          asked,
          geo,
          taken,
          iso(done),
          () => s.faker.string.uuid(),
          (p) => {
            made.push(p);
          },
        );
        s.add('storm_lists', list);
        s.add('storm_list_properties', ...made);
      }
    },
  };
}
