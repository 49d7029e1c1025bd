// A storm's track, as the model holds it: its centre line in miles on a flat frame about its first
// point (a track is at most a few hundred miles long, where the Earth is flat enough), and what it
// brings at a distance from that line. Hail tracks carry inches, wind tracks miles an hour.

export const MI_PER_DEG_LAT = 69.05;
const MI_PER_DEG_LON_AT_EQUATOR = 69.17;
/** How far from a point ground reports are counted for it (miles). */
export const REPORT_RADIUS_MI = 10;
/** The least gust the model calls damaging wind (mph, the severe-thunderstorm threshold). */
export const DAMAGING_GUST_MPH = 58;
/** Along the first and last share of a track, what it brings tapers off. */
const TAPER = 0.15;
const TAPER_FLOOR = 0.4;

export const milesPerDegLon = (lat: number) =>
  MI_PER_DEG_LON_AT_EQUATOR * Math.cos((lat * Math.PI) / 180);

/** A track as the day's storms are drawn; a year's are then packed (see year-index.ts). */
export interface Track {
  /** `<date>-h<n>` or `<date>-w<n>`: the day's n-th hail or wind track. */
  id: string;
  /** Days since 1970-01-01. */
  day: number;
  kind: 'hail' | 'wind';
  /** Largest hail (inches, on the reported scale) or strongest gust (mph) at the centre line. */
  peak: number;
  halfWidth: number;
  refLat: number;
  refLon: number;
  /** Miles per degree of longitude in the frame (a degree of latitude is MI_PER_DEG_LAT). */
  kx: number;
  /**
   * The centre line's points in the frame (miles) and the distance along it to each: x, y and
   * along, three numbers a point.
   */
  line: number[];
  length: number;
  /** How the radar misjudges this storm's hail (a factor about 1); 0 when no radar saw it. */
  radarBias: number;
  /** This storm's lean on the severe-hail probability. */
  poshLean: number;
  /** Ground reports: x, y (frame miles) and size (inches), three numbers each. */
  reports: number[];
  /** The box of latitudes and longitudes within which the track matters to a point. */
  south: number;
  north: number;
  west: number;
  east: number;
}

/** Where a point lies from a track's centre line: how far, and how far along the line. */
export interface Offset {
  miles: number;
  along: number;
}

/** The nearest point of a centre line (`line[start..end)`, see Track.line) to a frame's point. */
export function offsetOf(
  line: ArrayLike<number>,
  start: number,
  end: number,
  px: number,
  py: number,
): Offset {
  let best = Number.POSITIVE_INFINITY;
  let bestAlong = 0;
  for (let i = start; i + 5 < end; i += 3) {
    const ax = line[i] as number;
    const ay = line[i + 1] as number;
    const dx = (line[i + 3] as number) - ax;
    const dy = (line[i + 4] as number) - ay;
    const len2 = dx * dx + dy * dy;
    let f = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    const ex = ax + f * dx - px;
    const ey = ay + f * dy - py;
    const d2 = ex * ex + ey * ey;
    if (d2 < best) {
      best = d2;
      bestAlong = (line[i + 2] as number) + f * Math.sqrt(len2);
    }
  }
  return { miles: Math.sqrt(best), along: bestAlong };
}

/** A track's size across and along: what strengthAt needs of it. */
export interface Reach {
  hail: boolean;
  peak: number;
  halfWidth: number;
  length: number;
}

/**
 * What a track brings at an offset, before it is put on a scale: the peak on the centre line,
 * falling to the threshold (0.75 in, 58 mph) at its edges and easing off toward its ends.
 * Undefined outside the track.
 */
export function strengthAt(t: Reach, at: Offset): number | undefined {
  if (at.miles > t.halfWidth) {
    return undefined;
  }
  const x = at.miles / t.halfWidth;
  const a = t.length === 0 ? 0.5 : at.along / t.length;
  const ends = Math.min(1, Math.max(TAPER_FLOOR, Math.min(a, 1 - a) / TAPER));
  const floor = t.hail ? 0.75 : DAMAGING_GUST_MPH;
  return floor + (t.peak - floor) * (1 - x * x) * ends;
}

const round5 = (n: number) => Math.round(n * 1e5) / 1e5;

/** A centre line (see Track.line) as [latitude, longitude] points, to five decimals as drawn. */
export function pathOf(
  line: ArrayLike<number>,
  start: number,
  end: number,
  refLat: number,
  refLon: number,
  kx: number,
): [number, number][] {
  const out: [number, number][] = [];
  for (let i = start; i + 2 < end; i += 3) {
    out.push([
      round5(refLat + (line[i + 1] as number) / MI_PER_DEG_LAT),
      round5(refLon + (line[i] as number) / kx),
    ]);
  }
  return out;
}
