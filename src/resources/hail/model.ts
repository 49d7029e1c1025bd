import { DayAtPoint } from './point-day';
import { dayNumber } from './storms';
import { MI_PER_DEG_LAT, milesPerDegLon, offsetOf, pathOf } from './track';
import {
  at,
  cellAt,
  cellColumn,
  cellKey,
  cellRow,
  DAY,
  HALF_WIDTH,
  KIND,
  KX,
  LINE_FROM,
  LINE_TO,
  ORDINAL,
  PEAK,
  REF_LAT,
  REF_LON,
  spanOf,
  type YearIndex,
  yearIndex,
} from './year-index';

// The hail model: a deterministic, spatially coherent history of storms (see storms.ts). What a
// point saw on a day follows from the swaths that crossed it, so neighbouring points share their
// storms, the same point always tells the same story, and no clock is read: the caller bounds the
// dates (GET /hail_history ends them today).

export { HIGH_SEVERE_HAIL_PROBABILITY } from './point-day';

/** The spec's hail_events item, in the spec's field order. */
export interface HailEvent {
  date: string;
  size_in: number;
  confidence: 'confirmed' | 'likely' | 'radar';
  confirmed_by_ground_report: boolean;
  radar_estimated_size_in: number | null;
  severe_hail_probability: number | null;
  ground_report_size_in: number | null;
  ground_report_distance_mi: number | null;
  ground_report_count: number;
}

export interface WindEvent {
  date: string;
  max_gust_mph: number;
}

/** Both lists newest first. */
export interface History {
  hail_events: HailEvent[];
  wind_events: WindEvent[];
}

/** A storm's hail track: `path` is the centre line as [lat, lon] points. */
export interface Swath {
  id: string;
  date: string;
  peak_size_in: number;
  width_mi: number;
  path: readonly [number, number][];
}

/** The storm archive the model holds begins here; a lookup from before it starts here. */
export const ARCHIVE_START = '2000-01-01';
const FIRST_YEAR = Number(ARCHIVE_START.slice(0, 4));
// Years are drawn as a lookup reaches them; a window reaching far ahead must not draw centuries.
const LAST_YEAR = 2200;

const yearOf = (date: string) => Number(date.slice(0, 4));
const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(dayNumber(text));

/** The years a lookup of from..to reads, within the archive. */
function yearsOf(from: string, to: string): number[] {
  if (!isDate(from) || !isDate(to) || from > to) {
    return [];
  }
  const out: number[] = [];
  for (let y = Math.max(FIRST_YEAR, yearOf(from)); y <= Math.min(LAST_YEAR, yearOf(to)); y++) {
    out.push(y);
  }
  return out;
}

/**
 * Every hail day and damaging-wind day at a point from `from` to `to` (YYYY-MM-DD, both
 * inclusive).
 */
export function historyAt(latitude: number, longitude: number, from: string, to: string): History {
  const hail: HailEvent[] = [];
  const wind: WindEvent[] = [];
  const first = dayNumber(from);
  const last = dayNumber(to);
  for (const year of yearsOf(from, to)) {
    const index = yearIndex(year);
    const day = new DayAtPoint(index, latitude, longitude);
    const { start, end } = spanOf(index, cellAt(latitude, longitude));
    for (let k = start; k < end; k++) {
      const o = at(index.lists[k] as number);
      const d = index.num[o + DAY] as number;
      if (d < first || d > last) {
        continue;
      }
      if (d !== day.day) {
        day.close(hail, wind);
        day.open(d);
      }
      day.add(o);
    }
    day.close(hail, wind);
  }
  return { hail_events: hail.reverse(), wind_events: wind.reverse() };
}

// One object a swath, made on first use and shared by every caller: frozen, so none can change
// what the next one reads.
const swaths = new WeakMap<YearIndex, Map<number, Swath>>();

function swathOf(index: YearIndex, i: number): Swath {
  let made = swaths.get(index);
  if (!made) {
    made = new Map();
    swaths.set(index, made);
  }
  const kept = made.get(i);
  if (kept) {
    return kept;
  }
  const num = index.num;
  const o = at(i);
  const date = index.dates[(num[o + DAY] as number) - index.firstDay] as string;
  const path = pathOf(
    index.geo,
    num[o + LINE_FROM] as number,
    num[o + LINE_TO] as number,
    num[o + REF_LAT] as number,
    num[o + REF_LON] as number,
    num[o + KX] as number,
  ).map((point) => Object.freeze(point) as [number, number]);
  const s: Swath = Object.freeze({
    id: `${date}-h${num[o + ORDINAL]}`,
    date,
    peak_size_in: num[o + PEAK] as number,
    width_mi: Math.round((num[o + HALF_WIDTH] as number) * 20) / 10,
    path: Object.freeze(path),
  });
  made.set(i, s);
  return s;
}

/** The storm swaths of the days from..to whose hail reaches within `miles` of a point. */
export function swathsNear(
  latitude: number,
  longitude: number,
  miles: number,
  from: string,
  to: string,
): Swath[] {
  const first = dayNumber(from);
  const last = dayNumber(to);
  const reach = Math.max(0, miles);
  const dLat = reach / MI_PER_DEG_LAT;
  const dLon = reach / milesPerDegLon(Math.min(89, Math.abs(latitude) + dLat));
  const found: Swath[] = [];
  for (const year of yearsOf(from, to)) {
    const index = yearIndex(year);
    const num = index.num;
    const seen = new Set<number>();
    for (let row = cellRow(latitude - dLat); row <= cellRow(latitude + dLat); row++) {
      for (let col = cellColumn(longitude - dLon); col <= cellColumn(longitude + dLon); col++) {
        const { start, end } = spanOf(index, cellKey(row, col));
        for (let k = start; k < end; k++) {
          const i = index.lists[k] as number;
          const o = at(i);
          const d = num[o + DAY] as number;
          if (num[o + KIND] !== 0 || d < first || d > last || seen.has(i)) {
            continue;
          }
          seen.add(i);
          const px = (longitude - (num[o + REF_LON] as number)) * (num[o + KX] as number);
          const py = (latitude - (num[o + REF_LAT] as number)) * MI_PER_DEG_LAT;
          const off = offsetOf(
            index.geo,
            num[o + LINE_FROM] as number,
            num[o + LINE_TO] as number,
            px,
            py,
          );
          if (off.miles - (num[o + HALF_WIDTH] as number) <= reach) {
            found.push(swathOf(index, i));
          }
        }
      }
    }
  }
  // Newest first; a day's swaths in their order (h2 before h10).
  return found.sort(
    (a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || ordinal(a) - ordinal(b),
  );
}

const ordinal = (s: Swath) => Number(s.id.slice(s.id.lastIndexOf('-') + 2));
