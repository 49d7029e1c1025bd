import { ApiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position } from '../../store';
import type { Geography } from '../common/geo';
import { normalizePhone } from '../contacts/api';
import type { User } from '../users/api';
import { listUsers, requireUser } from '../users/api';
import { NO_NAME, namesAfter } from './homeowner';
import type { PinCreate, PinListQuery, PinUpdate } from './input';
import { checkInUs, checkZip, placePin } from './place';
import type { Pin } from './schema';

export function getPin(ctx: ServiceContext, id: string): Pin {
  const pin = ctx.ws.get('pins', id);
  if (!pin) {
    throw new ApiError('not_found', 'no such pin');
  }
  return pin;
}

// DESIGN.md: created_by defaults to the workspace owner (every workspace is made with one).
function owner(ctx: ServiceContext): User {
  const team = listUsers(ctx); // owners first
  const first = team[0];
  if (first === undefined) {
    throw new ApiError('invalid_request', 'the workspace has no user: name one', 'created_by');
  }
  return first;
}

type Text = string | null | undefined;
const orNull = (value: string | null): string | null =>
  value === null || value.trim() === '' ? null : value.trim();

// What a body sets of the homeowner's contact and the rep's notes: undefined where it says
// nothing, null where it clears (spec, Conventions: null, not an empty string).
const CONTACT: Record<'phone' | 'email' | 'notes', (value: string) => string> = {
  phone: normalizePhone,
  email: (value) => value.toLowerCase(),
  notes: (value) => value,
};

function contactOf(
  input: Partial<Record<keyof typeof CONTACT, Text>>,
): Partial<Pick<Pin, 'phone' | 'email' | 'notes'>> {
  const out: Partial<Pick<Pin, 'phone' | 'email' | 'notes'>> = {};
  for (const key of Object.keys(CONTACT) as (keyof typeof CONTACT)[]) {
    const value = input[key];
    if (value !== undefined) {
      const kept = orNull(value);
      out[key] = kept === null ? null : CONTACT[key](kept);
    }
  }
  return out;
}

/**
 * DESIGN.md, POST /pins: a knock logged at an address or at coordinates, by a rep of the
 * workspace (the owner unless `created_by` names one).
 */
export function createPin(ctx: ServiceContext, geo: Geography, input: PinCreate): Pin {
  const placed = placePin(geo, input);
  const rep =
    input.created_by === undefined ? owner(ctx) : requireUser(ctx, input.created_by, 'created_by');
  const now = ctx.clock.iso();
  return ctx.ws.transaction((tx) =>
    tx.put('pins', {
      id: newId(),
      object: 'pin',
      pin_type: input.pin_type ?? 'knock',
      knock_result: input.knock_result ?? null,
      ...placed,
      ...namesAfter(NO_NAME, input),
      phone: null,
      email: null,
      notes: null,
      ...contactOf(input),
      job_id: null,
      created_by_id: rep.id,
      created_at: now,
      updated_at: now,
    }),
  );
}

/** Whether a PATCH moves the pin or names a ZIP: its route then loads the geography to check it. */
export const movesPin = (input: PinUpdate): boolean =>
  input.latitude !== undefined ||
  input.longitude !== undefined ||
  (input.postal_code !== undefined && input.postal_code !== null);

/** spec, PATCH /pins/{id}: "the logging rep never changes"; decisions.md, nor does a job's pin. */
function checkFixed(pin: Pin, input: PinUpdate): void {
  for (const field of ['created_by_id', 'created_by'] as const) {
    const rep = input[field];
    if (rep !== undefined && rep !== pin.created_by_id) {
      throw new ApiError(
        'invalid_request',
        `${field}: the rep who logged a pin never changes`,
        field,
      );
    }
  }
  const type = input.pin_type;
  if (type !== undefined && type !== pin.pin_type && (type === 'job' || pin.pin_type === 'job')) {
    throw new ApiError(
      'invalid_request',
      type === 'job'
        ? 'pin_type job is set when the door becomes a job, not by PATCH'
        : 'the door became a job: its pin_type stays job',
      'pin_type',
    );
  }
}

const PLACE = ['address', 'city', 'state', 'postal_code'] as const;

/** spec, PATCH /pins/{id}: only the fields sent change; null clears a nullable one. */
export function updatePin(
  ctx: ServiceContext,
  geo: Geography | undefined,
  id: string,
  input: PinUpdate,
): Pin {
  const pin = getPin(ctx, id);
  checkFixed(pin, input);
  const next: Pin = { ...pin, ...namesAfter(pin, input), ...contactOf(input) };
  if (input.knock_result !== undefined) {
    next.knock_result = input.knock_result;
  }
  if (input.pin_type !== undefined) {
    next.pin_type = input.pin_type;
  }
  for (const key of PLACE) {
    const value = input[key];
    if (value !== undefined) {
      next[key] = value === null ? null : orNull(value);
    }
  }
  if (movesPin(input)) {
    if (geo === undefined) {
      throw new Error('a pin moved without the geography loaded');
    }
    checkZip(geo, input.postal_code);
    if (input.latitude !== undefined || input.longitude !== undefined) {
      next.latitude = input.latitude ?? pin.latitude;
      next.longitude = input.longitude ?? pin.longitude;
      checkInUs(
        geo,
        next.latitude,
        next.longitude,
        input.latitude === undefined ? 'longitude' : 'latitude',
      );
    }
  }
  if (JSON.stringify(next) === JSON.stringify(pin)) {
    return pin; // nothing changed: no write, no event
  }
  return ctx.ws.transaction((tx) => tx.put('pins', { ...next, updated_at: ctx.clock.iso() }));
}

/** decisions.md: a deleted pin is gone for good, as a task is. */
export function deletePin(ctx: ServiceContext, id: string): Pin {
  const pin = getPin(ctx, id);
  ctx.ws.transaction((tx) => tx.delete('pins', id));
  return pin;
}

export function listPins(
  ctx: ServiceContext,
  q: ListQuery & Partial<Omit<PinListQuery, 'limit' | 'cursor'>>,
  after: Position | undefined,
) {
  const inTime = timeFilter(q);
  return ctx.ws.scan('pins', {
    after,
    limit: q.limit,
    where: (pin) =>
      inTime(pin) &&
      (q.knock_result === undefined || pin.knock_result === q.knock_result) &&
      (q.pin_type === undefined || pin.pin_type === q.pin_type) &&
      (q.created_by === undefined || pin.created_by_id === q.created_by),
  });
}
