import type { z } from '@hono/zod-openapi';
import { defineRecords, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { type Contact, ContactSchema } from './schema';

export const fullName = (c: Pick<Contact, 'first_name' | 'last_name'>) =>
  [c.first_name, c.last_name].filter((p) => p).join(' ') || null;

/** What a page calls a contact: its name as the API works it out, else its company or email. */
export const contactName = (
  c: Pick<Contact, 'first_name' | 'last_name' | 'company' | 'email'>,
): string => fullName(c) ?? c.company ?? c.email ?? 'Unnamed contact';

/** Who a document is for: a contact's name as the API works it out, else its company. */
export const customerName = (c: Contact | undefined): string | null =>
  c ? (fullName(c) ?? c.company ?? null) : null;

export const presentContact = (ctx: ServiceContext, c: Contact): z.infer<typeof ContactSchema> =>
  shape(ContactSchema, c, {
    object: 'contact',
    full_name: fullName(c),
    assigned_to_name: c.assigned_to_id
      ? (ctx.ws.get('users', c.assigned_to_id)?.name ?? null)
      : null,
    url: `${ctx.appUrl}/contacts/${c.id}`,
  });

/** Contacts as the API shows them; a deleted one (in the recoverable area) it does not see. */
export const contactRecords = defineRecords({
  coll: 'contacts',
  schema: ContactSchema,
  present: presentContact,
  visible: (_ctx, c) => c.deleted_at === null,
  reads: ['users'],
});
