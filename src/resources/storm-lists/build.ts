import { type Geography, streetKey, type ZipPlace } from '../common/geo';
import { type HailEvent, historyAt, type Swath, swathsNear } from '../hail/api';
import { type Area, type AreaShape, shapeOf } from './area';
import { houseAddress, houseCount, houseFacts } from './houses';
import type { StormListProperty } from './schema';

// Building a storm list as the app does (decisions: storm lists): the properties of the area
// whose hail in the window, as hail history reports it at their address, reached the list's
// minimum size. Candidates are the houses of the ZIPs the window's swaths cross; each is placed
// exactly as GET /hail_history places its address, and its hail read from the same model, so a
// property and the hail history at its address always agree.

export interface BuildRequest {
  window_from: string;
  window_to: string;
  min_size_in: number;
  property_cap: number;
  area: Area;
}

/** A property the build found: where it is and the hail it had. */
export interface Found {
  zip: ZipPlace;
  index: number;
  address: string;
  key: string;
  latitude: number;
  longitude: number;
  event: HailEvent;
}

export interface Built {
  status: 'ready' | 'partial' | 'failed';
  /** What goes on the list, hardest hit first: at most the cap. */
  kept: Found[];
  total_available: number;
  skipped_duplicates: number;
  storm_date: string | null;
  clipped_area_sq_mi: number;
}

/** How far past a swath's half width a house is still read (the model tapers, never jumps). */
const SLACK_MI = 1;
/** How far an address lands from its ZIP's centre (geo.ts places it within 1.5 miles). */
const SPREAD_MI = 1.5;
const MI_PER_DEG = 69.05;

/** The address key dedupe compares: the street line as compared, and the ZIP. */
export const addressKey = (address: string, zip: string) => `${streetKey(address)}|${zip}`;

/** A swath's centre line on a plane round the area's centre (miles east, north). */
interface Corridor {
  reach: number;
  xs: number[];
  ys: number[];
}

type Plane = (lat: number, lon: number) => [number, number];

const planeAround = (shape: AreaShape): Plane => {
  const east = MI_PER_DEG * Math.cos((shape.latitude * Math.PI) / 180);
  return (lat, lon) => [(lon - shape.longitude) * east, (lat - shape.latitude) * MI_PER_DEG];
};

function corridorOf(swath: Swath, plane: Plane): Corridor {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [lat, lon] of swath.path) {
    const [x, y] = plane(lat, lon);
    xs.push(x);
    ys.push(y);
  }
  return { reach: swath.width_mi / 2 + SLACK_MI, xs, ys };
}

/** Miles from a point to a corridor's centre line. */
function distanceTo(c: Corridor, x: number, y: number): number {
  let best = Number.POSITIVE_INFINITY;
  const n = c.xs.length;
  for (let i = 0; i < n; i++) {
    const ax = c.xs[i] ?? 0;
    const ay = c.ys[i] ?? 0;
    const bx = c.xs[Math.min(i + 1, n - 1)] ?? ax;
    const by = c.ys[Math.min(i + 1, n - 1)] ?? ay;
    const dx = bx - ax;
    const dy = by - ay;
    const len = dx * dx + dy * dy;
    const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len));
    best = Math.min(best, Math.hypot(x - ax - t * dx, y - ay - t * dy));
  }
  return best;
}

const inAny = (corridors: readonly Corridor[], x: number, y: number) =>
  corridors.some((c) => distanceTo(c, x, y) <= c.reach);

/**
 * A point's hail on a day is the radar's estimate (a storm's peak misjudged by up to about a
 * third, put on the reported scale) or a ground report of that day within 10 miles (a step off
 * the size where it was measured): never more than half again the biggest peak of the day.
 */
const OVERSHOOT = 1.5;
const REPORT_REACH_MI = 10;

/**
 * The swaths crossing the area on the days whose hail could reach the minimum somewhere: a
 * point's hail comes from a swath of the day crossing it, its size from any storm of that day.
 */
function stormsOver(req: BuildRequest, shape: AreaShape): Swath[] {
  const { latitude, longitude, reach } = shape;
  const around = swathsNear(
    latitude,
    longitude,
    reach + REPORT_REACH_MI,
    req.window_from,
    req.window_to,
  );
  const days = new Set(
    around.filter((s) => s.peak_size_in * OVERSHOOT >= req.min_size_in).map((s) => s.date),
  );
  if (days.size === 0) {
    return [];
  }
  return swathsNear(latitude, longitude, reach, req.window_from, req.window_to).filter((s) =>
    days.has(s.date),
  );
}

/** The hail a point had in the window that meets the minimum: the largest, latest on ties. */
function hailAt(lat: number, lon: number, req: BuildRequest): HailEvent | undefined {
  let best: HailEvent | undefined;
  // Newest first: a later day of the same size is met first and kept.
  for (const e of historyAt(lat, lon, req.window_from, req.window_to).hail_events) {
    if (e.size_in >= req.min_size_in && (best === undefined || e.size_in > best.size_in)) {
      best = e;
    }
  }
  return best;
}

interface Scan {
  available: Found[];
  skipped: number;
  /** How many houses found had their hail on each day. */
  days: Map<string, number>;
}

/** Every house of the area the corridors may reach, placed and read as hail history would. */
function scanHouses(
  req: BuildRequest,
  shape: AreaShape,
  corridors: readonly Corridor[],
  geo: Geography,
  taken: ReadonlySet<string>,
): Scan {
  const plane = planeAround(shape);
  const out: Scan = { available: [], skipped: 0, days: new Map() };
  const seen = new Set<string>();
  for (const zip of geo.within(shape.latitude, shape.longitude, shape.reach + SPREAD_MI)) {
    const [zx, zy] = plane(zip.latitude, zip.longitude);
    const near = corridors.filter((c) => distanceTo(c, zx, zy) <= c.reach + SPREAD_MI);
    for (let index = 0; near.length > 0 && index < houseCount(zip); index++) {
      const address = houseAddress(zip, index);
      const placed = geo.locate({ address, postal_code: zip.postal_code });
      if (!('latitude' in placed) || !shape.contains(placed.latitude, placed.longitude)) {
        continue;
      }
      const { latitude, longitude } = placed;
      const event = inAny(near, ...plane(latitude, longitude))
        ? hailAt(latitude, longitude, req)
        : undefined;
      const key = addressKey(address, zip.postal_code);
      if (event === undefined || seen.has(key)) {
        continue;
      }
      seen.add(key);
      out.days.set(event.date, (out.days.get(event.date) ?? 0) + 1);
      if (taken.has(key)) {
        out.skipped++;
      } else {
        out.available.push({ zip, index, address, key, latitude, longitude, event });
      }
    }
  }
  return out;
}

/** Hardest hit first: the largest hail, then the latest day, then by address. */
const hardestFirst = (a: Found, b: Found) =>
  b.event.size_in - a.event.size_in ||
  (a.event.date < b.event.date ? 1 : a.event.date > b.event.date ? -1 : 0) ||
  (a.key < b.key ? -1 : 1);

/**
 * Builds a list: every house of the area that had hail of the minimum size in the window,
 * less those already on a recent list (`taken`, by addressKey), hardest hit first up to the cap.
 * decisions: failed when the area had no such house at all.
 */
export function buildList(req: BuildRequest, geo: Geography, taken: ReadonlySet<string>): Built {
  const shape = shapeOf(req.area);
  const plane = planeAround(shape);
  const corridors = stormsOver(req, shape).map((s) => corridorOf(s, plane));
  const { available, skipped, days } =
    corridors.length === 0
      ? { available: [], skipped: 0, days: new Map<string, number>() }
      : scanHouses(req, shape, corridors, geo, taken);
  available.sort(hardestFirst);
  const found = available.length + skipped;
  return {
    status: found === 0 ? 'failed' : available.length > req.property_cap ? 'partial' : 'ready',
    kept: available.slice(0, req.property_cap),
    total_available: available.length,
    skipped_duplicates: skipped,
    storm_date: stormDate(days),
    clipped_area_sq_mi: corridors.length === 0 ? 0 : clippedArea(req, shape, corridors),
  };
}

/** decisions: the day most of the properties found had their hail (the later on a tie). */
function stormDate(days: ReadonlyMap<string, number>): string | null {
  let best: [string, number] | undefined;
  for (const [date, n] of days) {
    if (best === undefined || n > best[1] || (n === best[1] && date > best[0])) {
      best = [date, n];
    }
  }
  return best?.[0] ?? null;
}

const GRID = 40;

/**
 * decisions: the part of the area where hail of the minimum size fell in the window, read from
 * the same model at the centres of a 40 by 40 grid over the area (tenths of a square mile).
 */
function clippedArea(req: BuildRequest, shape: AreaShape, corridors: readonly Corridor[]): number {
  const side = (2 * shape.reach) / GRID;
  const east = MI_PER_DEG * Math.cos((shape.latitude * Math.PI) / 180);
  let hit = 0;
  for (let row = 0; row < GRID; row++) {
    const y = -shape.reach + (row + 0.5) * side;
    const lat = shape.latitude + y / MI_PER_DEG;
    for (let col = 0; col < GRID; col++) {
      const x = -shape.reach + (col + 0.5) * side;
      const lon = shape.longitude + x / east;
      if (shape.contains(lat, lon) && inAny(corridors, x, y) && hailAt(lat, lon, req)) {
        hit++;
      }
    }
  }
  return Math.round(Math.min(hit * side * side, shape.sqMi) * 10) / 10;
}

/** A property found, as the list stores it. */
export function propertyOf(
  found: Found,
  listId: string,
  id: string,
  now: string,
  geo: Geography,
): StormListProperty {
  const { zip, event } = found;
  return {
    id,
    object: 'storm_list_property',
    storm_list_id: listId,
    address: found.address,
    city: zip.city,
    state: zip.state,
    zip: zip.postal_code,
    ...houseFacts(zip, found.index, found.address, geo),
    hail_size_in: event.size_in,
    hail_event_date: event.date,
    nearest_report_mi: event.ground_report_distance_mi,
    nearest_report_size_in: event.ground_report_size_in,
    latitude: found.latitude,
    longitude: found.longitude,
    created_at: now,
  };
}
