import { dayNumber, dayOf, stormsOn } from './storms';
import type { Track } from './track';

// The tracks of a year, drawn the first time a lookup reaches that year and kept, packed into
// single-precision arrays (ample for miles and degrees: as objects, a year's tracks held their
// numbers boxed one by one, 3.6 MB; packed, 0.8 MB), with a grid of half-degree cells naming the
// tracks whose reach (their swath and the ground-report radius around it) touches each cell: a
// lookup reads one cell a year, not the year's thousands of tracks.

const CELL_DEG = 0.5;

// A track's numbers in YearIndex.num, FIELDS of them a track, in this order.
export const DAY = 0;
/** 0 for hail, 1 for wind. */
export const KIND = 1;
export const PEAK = 2;
export const HALF_WIDTH = 3;
export const REF_LAT = 4;
export const REF_LON = 5;
export const KX = 6;
export const LENGTH = 7;
/** 0 when no radar saw the storm. */
export const RADAR_BIAS = 8;
export const POSH_LEAN = 9;
export const SOUTH = 10;
export const NORTH = 11;
export const WEST = 12;
export const EAST = 13;
/** Where the centre line is in `geo` (from, to), as Track.line. */
export const LINE_FROM = 14;
export const LINE_TO = 15;
/** Where the ground reports are in `geo` (from, to), as Track.reports. */
export const REPORTS_FROM = 16;
export const REPORTS_TO = 17;
/** The track's number among the day's tracks of its kind (its id's n). */
export const ORDINAL = 18;
const FIELDS = 19;

export interface YearIndex {
  /** Tracks in date order, FIELDS numbers each (see the field names above). */
  num: Float32Array;
  /** Centre lines and ground reports. */
  geo: Float32Array;
  /** The year's dates, by day of the year (0 = 1 January). */
  dates: string[];
  firstDay: number;
  /** Where a cell's list starts in `lists`. */
  cells: Map<number, number>;
  /** Each cell's list: its length, then its tracks (their numbers in `num`), in date order. */
  lists: Int32Array;
}

/** Where track `i`'s fields start in `num`. */
export const at = (i: number) => i * FIELDS;

/** The number of tracks of a year. */
export const countOf = (index: YearIndex) => index.num.length / FIELDS;

const years = new Map<number, YearIndex>();

export const cellRow = (lat: number) => Math.floor(lat / CELL_DEG);
export const cellColumn = (lon: number) => Math.floor(lon / CELL_DEG);
export const cellKey = (row: number, column: number) => (row + 400) * 1000 + (column + 400);
/** The cell a point falls in. */
export const cellAt = (lat: number, lon: number) => cellKey(cellRow(lat), cellColumn(lon));

/** The year's tracks and their grid. */
export function yearIndex(year: number): YearIndex {
  let index = years.get(year);
  if (!index) {
    index = buildYear(year);
    years.set(year, index);
  }
  return index;
}

/**
 * Where a cell's tracks are in `lists`: from `start` (inclusive) to `end`; an empty span for a
 * cell no track reaches. Loops read `lists` directly: a callback a track cost a lookup a tenth of
 * its time.
 */
export function spanOf(index: YearIndex, key: number): { start: number; end: number } {
  const first = index.cells.get(key);
  return first === undefined
    ? { start: 0, end: 0 }
    : { start: first + 1, end: first + 1 + (index.lists[first] as number) };
}

function buildYear(year: number): YearIndex {
  const firstDay = dayNumber(`${year}-01-01`);
  const lastDay = dayNumber(`${year}-12-31`);
  const tracks: Track[] = [];
  const dates: string[] = [];
  for (let day = firstDay; day <= lastDay; day++) {
    const d = dayOf(day);
    dates.push(d.date);
    for (const t of stormsOn(d)) {
      tracks.push(t);
    }
  }
  const { num, geo } = pack(tracks);
  const { cells, lists } = gridOf(tracks);
  return { num, geo, dates, firstDay, cells, lists };
}

function pack(tracks: readonly Track[]): { num: Float32Array; geo: Float32Array } {
  const num = new Float32Array(tracks.length * FIELDS);
  let size = 0;
  for (const t of tracks) {
    size += t.line.length + t.reports.length;
  }
  const geo = new Float32Array(size);
  let g = 0;
  tracks.forEach((t, i) => {
    const o = at(i);
    num[o + DAY] = t.day;
    num[o + KIND] = t.kind === 'hail' ? 0 : 1;
    num[o + PEAK] = t.peak;
    num[o + HALF_WIDTH] = t.halfWidth;
    num[o + REF_LAT] = t.refLat;
    num[o + REF_LON] = t.refLon;
    num[o + KX] = t.kx;
    num[o + LENGTH] = t.length;
    num[o + RADAR_BIAS] = t.radarBias;
    num[o + POSH_LEAN] = t.poshLean;
    num[o + SOUTH] = t.south;
    num[o + NORTH] = t.north;
    num[o + WEST] = t.west;
    num[o + EAST] = t.east;
    num[o + ORDINAL] = Number(t.id.slice(t.id.lastIndexOf('-') + 2));
    num[o + LINE_FROM] = g;
    geo.set(t.line, g);
    g += t.line.length;
    num[o + LINE_TO] = g;
    num[o + REPORTS_FROM] = g;
    geo.set(t.reports, g);
    g += t.reports.length;
    num[o + REPORTS_TO] = g;
  });
  return { num, geo };
}

function gridOf(tracks: readonly Track[]): { cells: Map<number, number>; lists: Int32Array } {
  const byCell = new Map<number, number[]>();
  tracks.forEach((t, i) => {
    for (let row = cellRow(t.south); row <= cellRow(t.north); row++) {
      for (let column = cellColumn(t.west); column <= cellColumn(t.east); column++) {
        const key = cellKey(row, column);
        const list = byCell.get(key);
        if (list) {
          list.push(i);
        } else {
          byCell.set(key, [i]);
        }
      }
    }
  });
  let size = 0;
  for (const list of byCell.values()) {
    size += 1 + list.length;
  }
  const lists = new Int32Array(size);
  const cells = new Map<number, number>();
  let next = 0;
  for (const [key, list] of byCell) {
    cells.set(key, next);
    lists[next] = list.length;
    lists.set(list, next + 1);
    next += 1 + list.length;
  }
  return { cells, lists };
}
