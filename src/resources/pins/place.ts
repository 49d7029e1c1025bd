import { ApiError } from '../../platform/errors';
import {
  type AddressParts,
  type Geography,
  isLocated,
  splitAddress,
  type ZipPlace,
} from '../common/geo';

// Where a new pin goes (decisions.md, Geocoding): by its coordinates, which take the nearest US
// ZIP's city, state and postal code, or by its address, placed near its ZIP's centre (or its
// city's). What the client sent is kept; the place only fills in what it left out.

/** A pin's place as stored. */
export interface Placed {
  address: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  latitude: number;
  longitude: number;
}

/** A create body's place, as validated: text trimmed, the state a code, `null` taken as unsent. */
export interface SentPlace extends AddressParts {
  latitude?: number | undefined;
  longitude?: number | undefined;
}

const filled = (value: string | null | undefined): string | undefined =>
  value === null || value === undefined || value.trim() === '' ? undefined : value.trim();

const refuse = (field: string, message: string) => new ApiError('invalid_request', message, field);

/** A ZIP sent is a US ZIP, however the pin is placed (decisions.md, Geocoding: never guessed). */
export function checkZip(geo: Geography, zip: string | null | undefined): ZipPlace | undefined {
  const given = filled(zip);
  if (given === undefined) {
    return undefined;
  }
  const found = geo.zip(given);
  if (found === undefined) {
    throw refuse('postal_code', 'postal_code is not a known US ZIP code');
  }
  return found;
}

/**
 * spec, Pin: latitude and longitude are numbers every pin has; one without the other is none.
 * The parts of the address the client left out come from the ZIP it sent, else from the nearest
 * ZIP: a Dallas point with a New York ZIP sent keeps New York's city and state beside that ZIP.
 */
function byCoordinates(geo: Geography, sent: SentPlace, lat: number, lon: number): Placed {
  const near = geo.nearest(lat, lon);
  if (near === undefined) {
    throw refuse('latitude', 'latitude and longitude are outside the United States');
  }
  const zip = checkZip(geo, sent.postal_code) ?? near;
  return {
    address: filled(sent.address) ?? null,
    city: filled(sent.city) ?? zip.city,
    state: filled(sent.state) ?? zip.state,
    postal_code: filled(sent.postal_code) ?? zip.postal_code,
    latitude: lat,
    longitude: lon,
  };
}

/** The address as sent, or, when a line is all there is, the parts that line holds. */
function partsOf(sent: SentPlace): AddressParts {
  const line = filled(sent.address);
  const others = [sent.city, sent.state, sent.postal_code].some((v) => filled(v) !== undefined);
  return line !== undefined && !others ? splitAddress(line) : sent;
}

function byAddress(geo: Geography, sent: SentPlace): Placed {
  const parts = partsOf(sent);
  const [street, city, state, zip] = [
    parts.address,
    parts.city,
    parts.state,
    parts.postal_code,
  ].map(filled);
  if (street === undefined && city === undefined && state === undefined && zip === undefined) {
    throw refuse('address', 'a pin needs an address, or latitude and longitude');
  }
  if (zip === undefined && (city === undefined) !== (state === undefined)) {
    // Half of "a city and state": name the half that is missing.
    throw city === undefined
      ? refuse('city', 'a state needs its city (or a postal_code) to place the pin')
      : refuse('state', 'a city needs its state (or a postal_code) to place the pin');
  }
  const found = geo.locate(parts);
  if (!isLocated(found)) {
    throw refuse(found.field, found.message);
  }
  return {
    address: found.address,
    city: city ?? found.city,
    state: state ?? found.state,
    postal_code: zip ?? found.postal_code,
    latitude: found.latitude,
    longitude: found.longitude,
  };
}

/** A new pin's place, or a 400 naming the field that keeps it from being placed. */
export function placePin(geo: Geography, sent: SentPlace): Placed {
  const { latitude: lat, longitude: lon } = sent;
  if (lat === undefined && lon === undefined) {
    return byAddress(geo, sent);
  }
  if (lat === undefined) {
    throw refuse('latitude', 'latitude is required with longitude');
  }
  if (lon === undefined) {
    throw refuse('longitude', 'longitude is required with latitude');
  }
  return byCoordinates(geo, sent, lat, lon);
}

/** PATCH: coordinates may move, but not out of the United States. */
export function checkInUs(geo: Geography, lat: number, lon: number, field: string): void {
  if (geo.nearest(lat, lon) === undefined) {
    throw refuse(field, 'latitude and longitude are outside the United States');
  }
}
