import { ApiError } from '../../platform/errors';
import { addDays } from '../common/central-time';
import { type Geography, isLocated, type Located, splitAddress } from '../common/geo';
import { historyAt } from './model';
import type { HailQueryInput, HailReport } from './schema';

// GET /hail_history: the place (an address, or coordinates), then every hail and damaging-wind
// day there from `since` to today, as the storm model has them.

/** Where a lookup is, and how the report names it. */
interface Place {
  address: string;
  latitude: number;
  longitude: number;
}

/** The hail report of a place from `since` (default five years back) to `today` (US Central). */
export function hailReport(geo: Geography, q: HailQueryInput, today: string): HailReport {
  const place = placeOf(geo, q);
  const since = q.since ?? fiveYearsBefore(today);
  if (since > today) {
    // decisions: a day not yet lived has no weather; an empty report would read as "no hail here".
    throw new ApiError('invalid_request', `since must not be after today (${today})`, 'since');
  }
  const history = historyAt(place.latitude, place.longitude, since, today);
  const largest = history.hail_events.reduce<number | null>(
    (max, e) => (max === null || e.size_in > max ? e.size_in : max),
    null,
  );
  return {
    object: 'hail_report',
    address: place.address,
    latitude: place.latitude,
    longitude: place.longitude,
    since,
    hail_day_count: history.hail_events.length,
    largest_hail_in: largest,
    last_hail_date: history.hail_events[0]?.date ?? null,
    hail_events: history.hail_events,
    wind_events: history.wind_events,
  };
}

/** The same day five years earlier; 29 February, in a year without one, is the 28th. */
export function fiveYearsBefore(today: string): string {
  const [y, m, d] = today.split('-').map(Number);
  const year = (y ?? 0) - 5;
  const lastOfMonth = new Date(Date.UTC(year, m ?? 1, 0)).getUTCDate();
  return addDays(
    `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-01`,
    Math.min(d ?? 1, lastOfMonth) - 1,
  );
}

// spec, GET /hail_history: `address` or `latitude` and `longitude`; United States only.
function placeOf(geo: Geography, q: HailQueryInput): Place {
  const { address, latitude, longitude } = q;
  if (address !== undefined) {
    if (latitude !== undefined || longitude !== undefined) {
      throw new ApiError(
        'invalid_request',
        'send address, or latitude and longitude, not both',
        'address',
      );
    }
    const found = geo.locate(splitAddress(address));
    if (!isLocated(found)) {
      // The parts are svc's reading of the one line; the client sent `address`.
      throw new ApiError('invalid_request', `address: ${found.message}`, 'address');
    }
    return { address: addressLine(found), latitude: found.latitude, longitude: found.longitude };
  }
  if (latitude === undefined && longitude === undefined) {
    throw new ApiError(
      'invalid_request',
      'address, or latitude and longitude, is required',
      'address',
    );
  }
  if (latitude === undefined) {
    throw new ApiError('invalid_request', 'latitude is required with longitude', 'latitude');
  }
  if (longitude === undefined) {
    throw new ApiError('invalid_request', 'longitude is required with latitude', 'longitude');
  }
  const zip = geo.nearest(latitude, longitude);
  if (!zip) {
    // The pair is one place; it is named by its first coordinate.
    throw new ApiError(
      'invalid_request',
      'latitude and longitude are outside the United States',
      'latitude',
    );
  }
  return { address: `${zip.city}, ${zip.state} ${zip.postal_code}`, latitude, longitude };
}

/** `street, city, ST 12345`: the street tidied, the rest as the ZIP table spells it. */
function addressLine(found: Located): string {
  const tail = `${found.city}, ${found.state} ${found.postal_code}`;
  return found.address === null ? tail : `${tidyStreet(found.address)}, ${tail}`;
}

const DIRECTIONS = new Set(['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw']);

/**
 * Runs of spaces and empty segments go; a word typed all in lower case gets its capital (and a
 * compass direction its capitals); a word typed with any capital is left as typed (McKinney, NE).
 */
export function tidyStreet(street: string): string {
  return street
    .split(',')
    .map((segment) => segment.split(/\s+/).filter(Boolean).map(tidyWord).join(' '))
    .filter(Boolean)
    .join(', ');
}

function tidyWord(word: string): string {
  if (word !== word.toLowerCase()) {
    return word;
  }
  if (DIRECTIONS.has(word.replace(/\.$/, ''))) {
    return word.toUpperCase();
  }
  return word.charAt(0).toUpperCase() + word.slice(1);
}
