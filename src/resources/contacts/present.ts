import type { z } from '@hono/zod-openapi';
import type { ServiceContext } from '../../platform/context';
import { defineRecords } from '../../platform/family';
import type { Contact, ContactSchema } from './schema';

export const fullName = (c: Pick<Contact, 'first_name' | 'last_name'>) =>
  [c.first_name, c.last_name].filter((p) => p).join(' ') || null;

export function presentContact(ctx: ServiceContext, c: Contact): z.infer<typeof ContactSchema> {
  return {
    id: c.id,
    object: 'contact',
    first_name: c.first_name,
    last_name: c.last_name,
    full_name: fullName(c),
    email: c.email,
    phone: c.phone,
    company: c.company,
    type: c.type,
    trades: c.trades,
    address: c.address,
    city: c.city,
    state: c.state,
    postal_code: c.postal_code,
    notes: c.notes,
    claim_number: c.claim_number,
    adjuster_type: c.adjuster_type,
    adjuster_extension: c.adjuster_extension,
    assigned_to_id: c.assigned_to_id,
    assigned_to_name: c.assigned_to_id
      ? (ctx.ws.get('users', c.assigned_to_id)?.name ?? null)
      : null,
    created_at: c.created_at,
    updated_at: c.updated_at,
    url: `${ctx.appUrl}/contacts/${c.id}`,
  };
}

/** Contacts as the API shows them; a deleted one (in the recoverable area) it does not see. */
export const contactRecords = defineRecords({
  coll: 'contacts',
  present: presentContact,
  visible: (_ctx, c) => c.deleted_at === null,
  reads: ['users'],
});
