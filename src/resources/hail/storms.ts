import { Draws } from '../../platform/random';
import { REGIONS, type Region, seasonOf } from './climate';
import { LARGEST_HAIL, sizeAtMost, sizeStep } from './sizes';
import {
  DAMAGING_GUST_MPH,
  MI_PER_DEG_LAT,
  milesPerDegLon,
  offsetOf,
  REPORT_RADIUS_MI,
  strengthAt,
  type Track,
} from './track';

// The storms of one day, drawn from the day's text alone: the same date always holds the same
// storms, whatever else was asked before. A day holds storm systems (an outbreak is many of them,
// a quiet day none); a system is a cluster of cells near one another moving one way, each cell
// laying a hail swath, some a damaging-wind swath too; lines of storms bring wind alone.

const DAY_MS = 86_400_000;
const SEGMENT_MI = 25;

/** A day's calendar: its text, its number since 1970, its month (0-11) and day of the month. */
export interface Day {
  date: string;
  day: number;
  month: number;
  dayOfMonth: number;
  daysInMonth: number;
}

export function dayOf(dayNumber: number): Day {
  const d = new Date(dayNumber * DAY_MS);
  const month = d.getUTCMonth();
  const year = d.getUTCFullYear();
  return {
    date: d.toISOString().slice(0, 10),
    day: dayNumber,
    month,
    dayOfMonth: d.getUTCDate(),
    daysInMonth: new Date(Date.UTC(year, month + 1, 0)).getUTCDate(),
  };
}

/** Days since 1970 of a `YYYY-MM-DD` date. */
export const dayNumber = (date: string): number =>
  Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

interface Shape {
  id: string;
  kind: 'hail' | 'wind';
  lat: number;
  lon: number;
  heading: number;
  length: number;
  width: number;
  peak: number;
  region: Region;
}

const countOf = (shapes: readonly Shape[], kind: Shape['kind']) => {
  let n = 0;
  for (const s of shapes) {
    n += s.kind === kind ? 1 : 0;
  }
  return n;
};

/** Every hail and wind track of a day. */
export function stormsOn(day: Day): Track[] {
  const draws = new Draws(`storms:${day.date}`);
  const season = seasonOf(day.month, day.dayOfMonth, day.daysInMonth);
  // How active the day is: most days near the season's mean, a few far above it (outbreaks).
  const activity = Math.exp(0.8 * draws.normal() - 0.32);
  const shapes: Shape[] = [];
  const systems = draws.poisson(season.systems * activity);
  for (let s = 0; s < systems; s++) {
    const region = REGIONS[draws.pick(season.regionWeights)] as Region;
    hailSystem(draws, region, season.cells * Math.sqrt(activity), day.date, shapes);
  }
  const lines = draws.poisson(season.windSystems * activity);
  for (let s = 0; s < lines; s++) {
    const region = REGIONS[draws.pick(season.windRegionWeights)] as Region;
    windSystem(draws, region, day.date, shapes);
  }
  return shapes.map((shape) => trackOf(draws, shape, day));
}

function hailSystem(draws: Draws, r: Region, meanCells: number, date: string, out: Shape[]) {
  const lat = r.lat + r.sdLat * draws.normal();
  const lon = r.lon + r.sdLon * draws.normal();
  const heading = r.heading + r.headingSd * draws.normal();
  const cells = 1 + draws.poisson(Math.max(0, meanCells * r.cells - 1));
  // Some systems grow bigger hail than their region's usual.
  const hail = r.hail * Math.exp(0.3 * draws.normal());
  for (let c = 0; c < cells; c++) {
    const peak = Math.min(LARGEST_HAIL, sizeAtMost(0.75 - hail * Math.log(1 - draws.unit())));
    out.push({
      id: `${date}-h${countOf(out, 'hail') + 1}`,
      kind: 'hail',
      lat: lat + 0.8 * draws.normal(),
      lon: lon + 1.1 * draws.normal(),
      heading: heading + 12 * draws.normal(),
      length: 10 + 140 * draws.unit() ** 1.6,
      // Bigger hail falls from bigger storms, which lay wider swaths.
      width: 2 + 14 * draws.unit() ** 1.8 + (peak - 0.75) * 1.5,
      peak,
      region: r,
    });
  }
  const gusts = draws.poisson(0.3 * r.wind * (1 + cells / 4));
  for (let g = 0; g < gusts; g++) {
    out.push(windShape(draws, r, date, out, lat, lon, heading, 1));
  }
}

function windSystem(draws: Draws, r: Region, date: string, out: Shape[]) {
  const lat = r.lat + r.sdLat * draws.normal();
  const lon = r.lon + r.sdLon * draws.normal();
  const heading = r.heading + 15 + r.headingSd * draws.normal();
  // One in ten lines of storms is a derecho: hundreds of miles long.
  const reach = draws.unit() < 0.1 ? 2.5 : 1;
  const count = 1 + draws.poisson(1.2);
  for (let g = 0; g < count; g++) {
    out.push(windShape(draws, r, date, out, lat, lon, heading, reach));
  }
}

function windShape(
  draws: Draws,
  r: Region,
  date: string,
  out: readonly Shape[],
  lat: number,
  lon: number,
  heading: number,
  reach: number,
): Shape {
  return {
    id: `${date}-w${countOf(out, 'wind') + 1}`,
    kind: 'wind',
    lat: lat + 0.9 * draws.normal(),
    lon: lon + 1.2 * draws.normal(),
    heading: heading + 10 * draws.normal(),
    length: (20 + 160 * draws.unit() ** 1.5) * reach,
    width: 5 + 25 * draws.unit() ** 1.5,
    peak: Math.round(DAMAGING_GUST_MPH + 2 + 40 * draws.unit() ** 2.2),
    region: r,
  };
}

/** The centre line: straight stretches, each turning a little from the last. */
function drawPath(draws: Draws, s: Shape): [number, number][] {
  const segments = Math.max(1, Math.round(s.length / SEGMENT_MI));
  const step = s.length / segments;
  let lat = s.lat;
  let lon = s.lon;
  let heading = s.heading;
  const points: [number, number][] = [[lat, lon]];
  for (let i = 0; i < segments; i++) {
    const rad = (heading * Math.PI) / 180;
    lat += (step * Math.cos(rad)) / MI_PER_DEG_LAT;
    lon += (step * Math.sin(rad)) / milesPerDegLon(lat);
    points.push([lat, lon]);
    // Storms drift right of the steering wind as they mature.
    heading += 2 + 6 * draws.normal();
  }
  return points.map(([a, b]) => [round5(a), round5(b)]);
}

const round5 = (n: number) => Math.round(n * 1e5) / 1e5;

function trackOf(draws: Draws, s: Shape, day: Day): Track {
  const path = drawPath(draws, s);
  const [refLat, refLon] = path[0] as [number, number];
  const kx = milesPerDegLon(refLat);
  const line: number[] = [];
  let length = 0;
  for (const [lat, lon] of path) {
    const x = (lon - refLon) * kx;
    const y = (lat - refLat) * MI_PER_DEG_LAT;
    if (line.length > 0) {
      length += Math.hypot(
        x - (line[line.length - 3] as number),
        y - (line[line.length - 2] as number),
      );
    }
    line.push(x, y, length);
  }
  const halfWidth = s.width / 2;
  const box = boxOf(path, halfWidth + REPORT_RADIUS_MI);
  const seen = draws.unit() < s.region.radar;
  const bias = Math.min(1.3, Math.max(0.75, Math.exp(0.12 * draws.normal())));
  const track: Track = {
    id: s.id,
    day: day.day,
    kind: s.kind,
    peak: s.peak,
    halfWidth,
    refLat,
    refLon,
    kx,
    line,
    length,
    radarBias: seen ? bias : 0,
    poshLean: 0.08 * draws.normal(),
    reports: [],
    south: box.south,
    north: box.north,
    west: box.west,
    east: box.east,
  };
  if (s.kind === 'hail') {
    track.reports = reportsOn(draws, track, s.region);
  }
  return track;
}

/** The box of a path widened by `miles` on every side (with a margin for the Earth's curve). */
function boxOf(path: readonly [number, number][], miles: number) {
  let south = 90;
  let north = -90;
  let west = 180;
  let east = -180;
  for (const [lat, lon] of path) {
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    west = Math.min(west, lon);
    east = Math.max(east, lon);
  }
  const dLat = (miles * 1.05) / MI_PER_DEG_LAT;
  const poleward = Math.max(Math.abs(south), Math.abs(north)) + dLat;
  const dLon = (miles * 1.05) / milesPerDegLon(Math.min(89, poleward));
  return { south: south - dLat, north: north + dLat, west: west - dLon, east: east + dLon };
}

/**
 * Ground reports along a hail swath: more on longer swaths, where more people live, and for bigger
 * hail (it is noticed). Each reports the hail where it stands, a size off now and then (people
 * measure by eye).
 */
function reportsOn(draws: Draws, t: Track, r: Region): number[] {
  const count = draws.poisson((t.length / 25) * r.spotters * (0.5 + t.peak / 2.5));
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const s = draws.unit() * t.length;
    const side = (draws.unit() * 2 - 1) * 0.85 * t.halfWidth;
    const [x, y] = pointAlong(t, s, side);
    const strength = strengthAt(
      { hail: true, peak: t.peak, halfWidth: t.halfWidth, length: t.length },
      offsetOf(t.line, 0, t.line.length, x, y),
    );
    if (strength === undefined) {
      continue;
    }
    const off = draws.unit();
    const measured = sizeStep(sizeAtMost(strength), off < 0.12 ? -1 : off > 0.85 ? 1 : 0);
    out.push(x, y, measured);
  }
  return out;
}

/** The point `s` miles along the centre line, `side` miles to its right. */
function pointAlong(t: Track, s: number, side: number): [number, number] {
  const line = t.line;
  let i = 0;
  while (i + 6 < line.length && (line[i + 5] as number) < s) {
    i += 3;
  }
  const ax = line[i] as number;
  const ay = line[i + 1] as number;
  const dx = (line[i + 3] ?? ax) - ax;
  const dy = (line[i + 4] ?? ay) - ay;
  const len = Math.hypot(dx, dy) || 1;
  const f = Math.min(1, Math.max(0, (s - (line[i + 2] as number)) / len));
  return [ax + f * dx + (side * dy) / len, ay + f * dy - (side * dx) / len];
}
