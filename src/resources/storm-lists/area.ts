import { ApiError } from '../../platform/errors';
import { type Geography, milesBetween } from '../common/geo';

// Where a storm list draws its properties from: a shape drawn on the map (the spec's area_kind
// "drawn"), or a circle round a point (a ZIP's centre, or the workspace's market by default).

export type Area =
  | { kind: 'radius'; latitude: number; longitude: number; radius_mi: number }
  | { kind: 'drawn'; polygon: [number, number][] };

/** What a build reads of an area: where it is, how far it reaches, what lies in it. */
export interface AreaShape {
  latitude: number;
  longitude: number;
  /** Miles from the centre to the farthest point of the area. */
  reach: number;
  sqMi: number;
  contains(latitude: number, longitude: number): boolean;
}

/** decisions: an area reaches at most 50 miles from its centre (a metro and its suburbs). */
export const MAX_REACH_MI = 50;
export const DEFAULT_RADIUS_MI = 25;
const MI_PER_DEG = 69.05;
const RAD = Math.PI / 180;

export function shapeOf(area: Area): AreaShape {
  if (area.kind === 'radius') {
    const { latitude, longitude, radius_mi } = area;
    return {
      latitude,
      longitude,
      reach: radius_mi,
      sqMi: Math.PI * radius_mi ** 2,
      contains: (lat, lon) => milesBetween(latitude, longitude, lat, lon) <= radius_mi,
    };
  }
  return polygonShape(area.polygon);
}

/** A polygon on a plane around its centre (miles east and north): small enough to be flat. */
function polygonShape(polygon: readonly [number, number][]): AreaShape {
  const lats = polygon.map((p) => p[0]);
  const lons = polygon.map((p) => p[1]);
  const latitude = (Math.min(...lats) + Math.max(...lats)) / 2;
  const longitude = (Math.min(...lons) + Math.max(...lons)) / 2;
  const east = MI_PER_DEG * Math.cos(latitude * RAD);
  const flat = polygon.map(([lat, lon]) => [
    (lon - longitude) * east,
    (lat - latitude) * MI_PER_DEG,
  ]);
  let twice = 0;
  for (let i = 0; i < flat.length; i++) {
    const [x1 = 0, y1 = 0] = flat[i] ?? [];
    const [x2 = 0, y2 = 0] = flat[(i + 1) % flat.length] ?? [];
    twice += x1 * y2 - x2 * y1;
  }
  return {
    latitude,
    longitude,
    reach: Math.max(...polygon.map(([lat, lon]) => milesBetween(latitude, longitude, lat, lon))),
    sqMi: Math.abs(twice) / 2,
    contains(lat, lon) {
      const x = (lon - longitude) * east;
      const y = (lat - latitude) * MI_PER_DEG;
      let inside = false;
      for (let i = 0, j = flat.length - 1; i < flat.length; j = i++) {
        const [xi = 0, yi = 0] = flat[i] ?? [];
        const [xj = 0, yj = 0] = flat[j] ?? [];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) {
          inside = !inside;
        }
      }
      return inside;
    },
  };
}

/** The area as the build request sends it. */
export interface AreaInput {
  latitude?: number | undefined;
  longitude?: number | undefined;
  postal_code?: string | undefined;
  radius_mi?: number | undefined;
  polygon?: [number, number][] | undefined;
}

const bad = (field: string, message: string) =>
  new ApiError('invalid_request', message, `area.${field}`);

/**
 * The area a build request names: a polygon, or a circle round a ZIP's centre or a point; with
 * none, a circle round `fallback` (the workspace's market). It must lie in the United States.
 */
export function areaOf(
  input: AreaInput | undefined,
  geo: Geography,
  fallback: () => { latitude: number; longitude: number },
): Area {
  const given = input ?? {};
  const radius = given.radius_mi ?? DEFAULT_RADIUS_MI;
  let area: Area;
  if (given.polygon !== undefined) {
    for (const other of ['latitude', 'longitude', 'postal_code', 'radius_mi'] as const) {
      if (given[other] !== undefined) {
        throw bad(other, `area takes a polygon or a circle, not both: leave out ${other}`);
      }
    }
    area = { kind: 'drawn', polygon: given.polygon };
    const shape = shapeOf(area);
    if (shape.reach > MAX_REACH_MI) {
      throw bad('polygon', `the polygon must lie within ${MAX_REACH_MI} miles of its centre`);
    }
    if (shape.sqMi < 0.01) {
      throw bad('polygon', 'the polygon encloses no area');
    }
  } else if (given.postal_code !== undefined) {
    if (given.latitude !== undefined || given.longitude !== undefined) {
      throw bad('postal_code', 'area takes a postal_code or a latitude and longitude, not both');
    }
    const zip = geo.zip(given.postal_code);
    if (zip === undefined) {
      throw bad('postal_code', 'area.postal_code is not a known US ZIP code');
    }
    area = { kind: 'radius', latitude: zip.latitude, longitude: zip.longitude, radius_mi: radius };
  } else if (given.latitude !== undefined || given.longitude !== undefined) {
    if (given.latitude === undefined) {
      throw bad('latitude', 'area.latitude is required with area.longitude');
    }
    if (given.longitude === undefined) {
      throw bad('longitude', 'area.longitude is required with area.latitude');
    }
    area = {
      kind: 'radius',
      latitude: given.latitude,
      longitude: given.longitude,
      radius_mi: radius,
    };
  } else {
    area = { kind: 'radius', ...fallback(), radius_mi: radius };
  }
  const { latitude, longitude } = shapeOf(area);
  if (geo.nearest(latitude, longitude) === undefined) {
    throw bad(
      area.kind === 'drawn' ? 'polygon' : 'latitude',
      'the area is outside the United States',
    );
  }
  return area;
}
