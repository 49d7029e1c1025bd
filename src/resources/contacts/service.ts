import { ApiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position } from '../../store';
import { requireUser } from '../users/api';
import { normalizePhone, phoneKey } from './phone';
import { fullName } from './present';
import {
  type Contact,
  type ContactCreate,
  type ContactType,
  type ContactUpdate,
  contactFields,
} from './schema';

/** A live contact of this workspace; a deleted one, or another workspace's, is not found. */
export function findContact(ctx: ServiceContext, id: string): Contact | undefined {
  const contact = ctx.ws.get('contacts', id);
  return contact && contact.deleted_at === null ? contact : undefined;
}

export function getContact(ctx: ServiceContext, id: string): Contact {
  const contact = findContact(ctx, id);
  if (!contact) {
    throw new ApiError('not_found', 'no such contact');
  }
  return contact;
}

/** For a field that names a contact: 400 naming the field when there is no such contact. */
export function requireContact(ctx: ServiceContext, id: string, field: string): Contact {
  const contact = findContact(ctx, id);
  if (!contact) {
    throw new ApiError('invalid_request', `${field} is not a contact of this workspace`, field);
  }
  return contact;
}

/** "Mary Ann Smith": first name "Mary Ann", last name "Smith". */
export function splitName(name: string): { first_name: string | null; last_name: string | null } {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) {
    return { first_name: null, last_name: null };
  }
  if (words.length === 1) {
    return { first_name: words[0] ?? null, last_name: null };
  }
  return { first_name: words.slice(0, -1).join(' '), last_name: words.at(-1) ?? null };
}

function phoneOf(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null || value.trim() === '') {
    return value === undefined ? undefined : null;
  }
  return normalizePhone(value);
}

const blankToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null || value === '' ? null : value;

type Writable = Omit<Contact, 'id' | 'object' | 'created_at' | 'updated_at' | 'deleted_at'>;

/** The fields an input sets, checked and normalised; names and references are checked here. */
function fieldsOf(ctx: ServiceContext, input: ContactCreate | ContactUpdate): Partial<Writable> {
  const out: Partial<Writable> = {};
  const { name, first_name, last_name, phone, assigned_to, type, trades, ...plain } = input;
  // spec, ContactCreate: name is split into first and last "when those are not sent": each half
  // fills only the one not sent, so {name: "Bob Jones", first_name: "Robert"} keeps "Jones".
  if (name !== undefined) {
    const split = name === null ? { first_name: null, last_name: null } : splitName(name);
    if (first_name === undefined) {
      out.first_name = split.first_name;
    }
    if (last_name === undefined) {
      out.last_name = split.last_name;
    }
  }
  if (first_name !== undefined) {
    out.first_name = blankToNull(first_name) ?? null;
  }
  if (last_name !== undefined) {
    out.last_name = blankToNull(last_name) ?? null;
  }
  const normalized = phoneOf(phone);
  if (normalized !== undefined) {
    out.phone = normalized;
  }
  if (assigned_to !== undefined) {
    out.assigned_to_id =
      assigned_to === null ? null : requireUser(ctx, assigned_to, 'assigned_to').id;
  }
  if (type !== undefined) {
    out.type = type;
  }
  if (trades !== undefined) {
    out.trades = trades ?? [];
  }
  for (const [key, value] of Object.entries(plain) as [string, string | null | undefined][]) {
    if (value !== undefined) {
      (out as Record<string, unknown>)[key] =
        key === 'email' ? value?.trim().toLowerCase() || null : blankToNull(value);
    }
  }
  return out;
}

// spec, Contacts: at least one of a name, email, phone or company.
function checkIdentified(c: Writable): void {
  if (!c.first_name && !c.last_name && !c.email && !c.phone && !c.company) {
    throw new ApiError(
      'invalid_request',
      'a contact needs at least one of a name, email, phone or company',
      'name',
    );
  }
}

// A new contact's fields before its body: nothing known, a homeowner, no trades.
export const NEW_CONTACT = {
  ...(Object.fromEntries(
    Object.keys(contactFields).map((key) => [key === 'assigned_to' ? 'assigned_to_id' : key, null]),
  ) as Record<Exclude<keyof typeof contactFields, 'assigned_to'> | 'assigned_to_id', null>),
  type: 'homeowner',
  trades: [],
} satisfies Writable;

export function createContact(ctx: ServiceContext, input: ContactCreate): Contact {
  const fields = { ...NEW_CONTACT, ...fieldsOf(ctx, input) };
  checkIdentified(fields);
  const now = ctx.clock.iso();
  return ctx.ws.transaction((tx) =>
    tx.put('contacts', {
      id: newId(),
      object: 'contact',
      ...fields,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    }),
  );
}

export function updateContact(ctx: ServiceContext, id: string, input: ContactUpdate): Contact {
  const current = getContact(ctx, id);
  const changes = fieldsOf(ctx, input);
  const next = { ...current, ...changes };
  checkIdentified(next);
  const changed = (Object.keys(changes) as (keyof Writable)[]).some(
    (key) => JSON.stringify(current[key]) !== JSON.stringify(next[key]),
  );
  if (!changed) {
    return current;
  }
  return ctx.ws.transaction((tx) => tx.put('contacts', { ...next, updated_at: ctx.clock.iso() }));
}

/** spec, Conventions: kept 30 days in a recoverable area with everything on it. */
export function deleteContact(ctx: ServiceContext, id: string): Contact {
  const contact = getContact(ctx, id);
  const now = ctx.clock.iso();
  return ctx.ws.transaction((tx) =>
    tx.put('contacts', { ...contact, deleted_at: now, updated_at: now }),
  );
}

export function listContacts(
  ctx: ServiceContext,
  q: ListQuery & { type?: ContactType | undefined; assigned_to?: string | undefined },
  after: Position | undefined,
) {
  const inTime = timeFilter(q);
  return ctx.ws.scan('contacts', {
    after,
    limit: q.limit,
    where: (c) =>
      c.deleted_at === null &&
      inTime(c) &&
      (q.type === undefined || c.type === q.type) &&
      (q.assigned_to === undefined || c.assigned_to_id === q.assigned_to),
  });
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * spec, Contacts: email first, then phone (however typed), then name (a first name, a last name,
 * "first last", or a company); the first criterion that matches wins. No criteria: nothing.
 */
export function searchContacts(
  ctx: ServiceContext,
  q: {
    email?: string | undefined;
    phone?: string | undefined;
    name?: string | undefined;
    limit: number;
  },
): Contact[] {
  const tries: ((c: Contact) => boolean)[] = [];
  if (q.email?.trim()) {
    const email = norm(q.email);
    tries.push((c) => c.email !== null && norm(c.email) === email);
  }
  if (q.phone?.trim() && phoneKey(q.phone) !== '') {
    const key = phoneKey(q.phone);
    tries.push((c) => c.phone !== null && phoneKey(c.phone) === key);
  }
  if (q.name?.trim()) {
    const name = norm(q.name);
    tries.push((c) =>
      [c.first_name, c.last_name, fullName(c), c.company].some(
        (v) => v !== null && norm(v) === name,
      ),
    );
  }
  for (const matches of tries) {
    const { items } = ctx.ws.scan('contacts', {
      limit: q.limit,
      where: (c) => c.deleted_at === null && matches(c),
    });
    if (items.length > 0) {
      return items;
    }
  }
  return [];
}
