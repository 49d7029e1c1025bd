import { z } from '@hono/zod-openapi';
import { listOf, requiresOneOf, timestamp } from '../../platform/openapi/schemas';
import { limitParam, pagingQuery } from '../../platform/paging';
import type { Rec } from '../../store';
import { createShape, patchShape, stringArray, text, usState, uuidInput } from '../common/fields';

export const CONTACT_TYPES = [
  'homeowner',
  'commercial',
  'adjuster',
  'contractor',
  'subcontractor',
  'install_crew',
  'inspector',
  'mortgage_company',
  'other',
] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

/** What GET shows of a contact that svc works out. */
type Worked = 'object' | 'full_name' | 'assigned_to_name' | 'url';

/** A contact as stored: what GET shows but what is worked out, and its deletion. */
export type Contact = Rec &
  Omit<z.infer<typeof ContactSchema>, 'id' | Worked> & {
    object: 'contact';
    type: ContactType;
    /** Set while the contact is in the recoverable area (30 days). */
    deleted_at: string | null;
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    contacts: Contact;
  }
}

const nullable = z.string().nullable();

export const ContactSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('contact'),
    first_name: nullable,
    last_name: nullable,
    full_name: nullable,
    email: nullable,
    phone: nullable.openapi({ description: 'US numbers as (NNN) NNN-NNNN' }),
    company: nullable,
    type: z.string().meta({
      description: `One of ${CONTACT_TYPES.join(', ')}; treat as open`,
      example: 'homeowner',
    }),
    trades: z.array(z.string()),
    address: nullable,
    city: nullable,
    state: nullable,
    postal_code: nullable,
    notes: nullable,
    claim_number: nullable,
    adjuster_type: nullable,
    adjuster_extension: nullable,
    assigned_to_id: z.uuid().nullable(),
    assigned_to_name: nullable,
    created_at: timestamp(),
    updated_at: timestamp(),
    url: z.url(),
  })
  .openapi('Contact');

// Fields a contact body sets (ContactCreate, ContactUpdate); a new one is stored as sent.
export const contactFields = {
  first_name: text(100),
  last_name: text(100),
  // Blank is no email (null), as a blank phone or company is; anything else must be an address.
  email: z
    .string()
    .trim()
    .pipe(z.union([z.literal(''), z.email().max(254)]))
    .openapi({ maxLength: 254, description: 'An email address; blank is none' }),
  phone: text(100).openapi({
    description:
      'Any text; a recognisable US number is stored as (NNN) NNN-NNNN (an extension as ` xNN`), anything else as sent',
  }),
  company: text(200),
  type: z.enum(CONTACT_TYPES),
  trades: stringArray(),
  address: text(300),
  city: text(100),
  state: usState(),
  postal_code: text(20),
  notes: text(10_000),
  claim_number: text(100),
  adjuster_type: text(100),
  adjuster_extension: text(20),
  assigned_to: uuidInput().openapi({ description: 'A teammate user id from /users' }),
};

const name = text(200).openapi({
  description: 'Full name, split into first and last when those are not sent',
});

export const ContactCreateSchema = z
  .object(createShape({ ...contactFields, name }))
  .openapi('ContactCreate', {
    description: 'At least one of a name (name, first_name or last_name), email, phone or company',
    ...requiresOneOf([['name', 'first_name', 'last_name', 'email', 'phone', 'company']]),
  });

export const ContactUpdateSchema = z
  .object(patchShape(contactFields))
  // A contact always has a type: it cannot be cleared, as a job's job_type cannot.
  .extend({
    type: contactFields.type.optional(),
    name: name.nullable().optional(),
  })
  .openapi('ContactUpdate');

export type ContactCreate = z.output<typeof ContactCreateSchema>;
export type ContactUpdate = z.output<typeof ContactUpdateSchema>;

export const ContactListQuery = pagingQuery.extend({
  type: z.enum(CONTACT_TYPES).optional(),
  assigned_to: uuidInput().optional(),
});

export const ContactSearchQuery = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  name: z.string().optional(),
  limit: limitParam,
});

export const ContactListSchema = listOf(ContactSchema, 'ContactList');
