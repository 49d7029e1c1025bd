import { hash } from 'node:crypto';
import type { ZipCode } from 'zipcodes';
import { stateCode } from './us-states';

// Offline geocoding (decisions.md, Geocoding): the `zipcodes` table of US ZIP centres, loaded on
// first use (it costs a start a fifth of a second). An address is placed near its ZIP's centre at
// an offset its street line decides, so the same address always lands on the same spot and
// neighbouring addresses land near each other; coordinates get the nearest ZIP's city, state and
// postal code.

/** A ZIP as svc places things by it. */
export interface ZipPlace {
  postal_code: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
}

/** An address as geocoding placed it. */
export interface Located extends ZipPlace {
  /** The street line as given, trimmed; null when none was given (the ZIP's centre). */
  address: string | null;
}

/** What an address is given as: any of the four, at least a ZIP or a city and state. */
export interface AddressParts {
  address?: string | null | undefined;
  city?: string | null | undefined;
  state?: string | null | undefined;
  postal_code?: string | null | undefined;
}

/** Why an address could not be placed, and which field of it says so. */
export interface Unlocated {
  field: 'address' | 'postal_code' | 'city' | 'state';
  message: string;
}

/** How far from its ZIP's centre an address may land (miles). */
const SPREAD_MI = 1.5;
/** Coordinates farther than this from every US ZIP centre are outside the United States. */
const US_REACH_MI = 30;
const MI_PER_DEG_LAT = 69.05;
/** Military mail "states": no place on a map. */
const NOT_PLACES = new Set(['AA', 'AE', 'AP']);

export const milesBetween = (aLat: number, aLon: number, bLat: number, bLon: number): number => {
  const rad = Math.PI / 180;
  const dLat = (bLat - aLat) * rad;
  const dLon = (bLon - aLon) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLon / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.min(1, Math.sqrt(h)));
};

/** A number in [0, 1) that the text alone decides. */
export function unitOf(text: string, salt = ''): number {
  // crypto.hash, one call rather than a Hash object: placing a house is most of a storm list's build
  const hex = hash('sha256', `${salt}\u0000${text}`, 'hex');
  return Number.parseInt(hex.slice(0, 8), 16) / 2 ** 32;
}

/** A street line as compared: case, punctuation and runs of spaces do not make it another. */
export const streetKey = (street: string): string =>
  street.toLowerCase().replace(/[.,#]/g, ' ').replace(/\s+/g, ' ').trim();

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

export class Geography {
  readonly #zips: ZipPlace[];
  readonly #byZip: Map<string, ZipPlace>;
  readonly #byCity: Map<string, ZipPlace[]>;
  /** ZIPs by one-degree cell, for the nearest ZIP without a scan of all 42,000. */
  readonly #cells = new Map<string, ZipPlace[]>();

  constructor(codes: Iterable<ZipCode>) {
    this.#zips = [];
    for (const c of codes) {
      if (c.country !== 'US' || NOT_PLACES.has(c.state) || !/^\d{5}$/.test(c.zip)) {
        continue;
      }
      this.#zips.push({
        postal_code: c.zip,
        city: c.city,
        state: c.state,
        latitude: c.latitude,
        longitude: c.longitude,
      });
    }
    this.#byZip = new Map(this.#zips.map((z) => [z.postal_code, z]));
    this.#byCity = new Map();
    for (const z of this.#zips) {
      const key = `${z.city.toLowerCase()}|${z.state}`;
      const list = this.#byCity.get(key) ?? [];
      list.push(z);
      this.#byCity.set(key, list);
      const cell = cellOf(z.latitude, z.longitude);
      const inCell = this.#cells.get(cell) ?? [];
      inCell.push(z);
      this.#cells.set(cell, inCell);
    }
  }

  /** A US ZIP by its five digits (a ZIP+4 reads as its first five). */
  zip(code: string): ZipPlace | undefined {
    const five = /^\s*(\d{5})(?:-\d{4})?\s*$/.exec(code)?.[1];
    return five === undefined ? undefined : this.#byZip.get(five);
  }

  /** The ZIPs of a city, in ZIP order; the state as a code or a name. */
  city(city: string, state: string): ZipPlace[] {
    const code = stateCode(state);
    if (code === undefined) {
      return [];
    }
    const key = `${city.trim().toLowerCase().replace(/\s+/g, ' ')}|${code}`;
    return [...(this.#byCity.get(key) ?? [])].sort((a, b) =>
      a.postal_code < b.postal_code ? -1 : 1,
    );
  }

  /**
   * Places an address: by its ZIP, else by its city and state (the city's first ZIP), at an
   * offset its street line decides. A ZIP that names no US ZIP is refused, not guessed around.
   */
  locate(parts: AddressParts): Located | Unlocated {
    const street = parts.address?.trim() || null;
    let base: ZipPlace | undefined;
    if (parts.postal_code?.trim()) {
      base = this.zip(parts.postal_code);
      if (!base) {
        return { field: 'postal_code', message: 'postal_code is not a known US ZIP code' };
      }
    } else if (parts.city?.trim() && parts.state?.trim()) {
      if (stateCode(parts.state) === undefined) {
        return { field: 'state', message: 'state is not a US state' };
      }
      base = this.city(parts.city, parts.state)[0];
      if (!base) {
        return { field: 'city', message: 'no US city of that name in that state' };
      }
    } else {
      return {
        field: street ? 'postal_code' : 'address',
        message: 'an address needs a postal_code, or a city and state, to be placed',
      };
    }
    if (street === null) {
      return { ...base, address: null };
    }
    const key = `${streetKey(street)}|${base.postal_code}`;
    const angle = unitOf(key, 'angle') * 2 * Math.PI;
    // sqrt: spread evenly over the disc, not bunched at its centre
    const miles = Math.sqrt(unitOf(key, 'distance')) * SPREAD_MI;
    const latitude = base.latitude + (Math.sin(angle) * miles) / MI_PER_DEG_LAT;
    const longitude =
      base.longitude +
      (Math.cos(angle) * miles) / (MI_PER_DEG_LAT * Math.cos((base.latitude * Math.PI) / 180));
    return { ...base, address: street, latitude: round6(latitude), longitude: round6(longitude) };
  }

  /** The nearest US ZIP to a point; undefined when the point is outside the United States. */
  nearest(latitude: number, longitude: number): ZipPlace | undefined {
    let best: ZipPlace | undefined;
    let bestMi = Number.POSITIVE_INFINITY;
    for (const z of this.#around(latitude, longitude, 1)) {
      const mi = milesBetween(latitude, longitude, z.latitude, z.longitude);
      if (mi < bestMi) {
        best = z;
        bestMi = mi;
      }
    }
    return bestMi <= US_REACH_MI ? best : undefined;
  }

  /** The US ZIPs whose centres lie within `miles` of a point, nearest first. */
  within(latitude: number, longitude: number, miles: number): ZipPlace[] {
    const reach = Math.ceil(miles / 50) + 1;
    return this.#around(latitude, longitude, reach)
      .map((z) => ({ z, mi: milesBetween(latitude, longitude, z.latitude, z.longitude) }))
      .filter(({ mi }) => mi <= miles)
      .sort((a, b) => a.mi - b.mi || (a.z.postal_code < b.z.postal_code ? -1 : 1))
      .map(({ z }) => z);
  }

  #around(latitude: number, longitude: number, reach: number): ZipPlace[] {
    const lat0 = Math.floor(latitude);
    const lon0 = Math.floor(longitude);
    const out: ZipPlace[] = [];
    for (let dy = -reach; dy <= reach; dy++) {
      for (let dx = -reach; dx <= reach; dx++) {
        out.push(...(this.#cells.get(`${lat0 + dy}|${lon0 + dx}`) ?? []));
      }
    }
    return out;
  }
}

const cellOf = (lat: number, lon: number) => `${Math.floor(lat)}|${Math.floor(lon)}`;

let loaded: Promise<Geography> | undefined;

/** The geography, loaded once on first use (routes await it; it is ready after the first). */
export function geography(): Promise<Geography> {
  loaded ??= import('zipcodes').then((m) => new Geography(Object.values(m.default.codes)));
  return loaded;
}

/** Whether `located` is an address placed, rather than why it was not. */
export const isLocated = (found: Located | Unlocated): found is Located => 'latitude' in found;

/**
 * A one-line US address split into its parts: `street, city, ST 12345` and the shorter forms a
 * person types (`street, 12345`, `street, city, ST`, `street, city ST`, `12345`).
 */
export function splitAddress(text: string): AddressParts {
  let line = text.trim().replace(/\s+/g, ' ');
  const zip = /[\s,]*\b(\d{5})(?:-\d{4})?$/.exec(line);
  if (zip) {
    line = line.slice(0, zip.index);
  }
  const segments = line
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let state: string | undefined;
  const last = segments[segments.length - 1];
  if (last !== undefined && segments.length >= 2) {
    state = stateCode(last);
    if (state !== undefined) {
      segments.pop();
    } else {
      // "Dallas TX", "Oklahoma City Oklahoma", "Fargo North Dakota": the city and the state in one
      // segment, the state its last one to three words
      const words = last.split(' ');
      for (let n = Math.min(3, words.length - 1); n >= 1 && state === undefined; n--) {
        const code = stateCode(words.slice(-n).join(' '));
        if (code !== undefined) {
          state = code;
          segments[segments.length - 1] = words.slice(0, -n).join(' ');
        }
      }
    }
  }
  const city = segments.length >= 2 ? segments.pop() : undefined;
  return {
    address: segments.join(', ') || null,
    city: city ?? null,
    state: state ?? null,
    postal_code: zip?.[1] ?? null,
  };
}
