import { z } from '@hono/zod-openapi';
import { pagingQuery } from '../../platform/paging';
import { createShape, patchShape, text, usState, uuidInput } from '../common/fields';
import { contactFields } from '../contacts/api';
import { KNOCK_RESULTS, PIN_TYPES, SETTABLE_PIN_TYPES } from './schema';

// The bodies and the query of the pins API (spec, Canvassing pins; DESIGN.md, pins).

const latitude = z.number().min(-90).max(90).openapi({ description: 'Degrees, -90 to 90' });
const longitude = z.number().min(-180).max(180).openapi({ description: 'Degrees, -180 to 180' });

/** What a pin's body may set, on create and on update alike. */
const place = {
  address: text(300).openapi({
    description:
      'The street line; alone, a whole one-line address (`12 Elm St, Dallas, TX 75201`) is read',
  }),
  city: text(100),
  state: usState(),
  postal_code: text(20).openapi({ description: 'A US ZIP code' }),
};
const person = {
  homeowner_first_name: text(100),
  homeowner_last_name: text(100),
  phone: contactFields.phone,
  email: contactFields.email,
  notes: text(10_000),
};
const homeownerName = text(200).openapi({
  description: 'Split into first and last where those are not sent',
});
const knockResult = z.enum(KNOCK_RESULTS);

// DESIGN.md: an address (a ZIP, or a city and state, or one line holding them) or latitude and
// longitude; the document says so as client generators read it.
const locatable = {
  anyOf: [
    {
      type: 'object' as const,
      properties: { latitude: { type: 'number' as const }, longitude: { type: 'number' as const } },
      required: ['latitude', 'longitude'],
    },
    ...['address', 'postal_code'].map((field) => ({
      type: 'object' as const,
      properties: { [field]: { type: 'string' as const } },
      required: [field],
    })),
    {
      type: 'object' as const,
      properties: { city: { type: 'string' as const }, state: { type: 'string' as const } },
      required: ['city', 'state'],
    },
  ],
};

export const PinCreateSchema = z
  .object(
    createShape({
      pin_type: z.enum(SETTABLE_PIN_TYPES).openapi({ description: 'Defaults to knock' }),
      knock_result: knockResult,
      latitude,
      longitude,
      ...place,
      homeowner_name: homeownerName,
      ...person,
      created_by: uuidInput().openapi({
        description: 'The rep who knocked: a user id from /users; defaults to the workspace owner',
      }),
    }),
  )
  .openapi('PinCreate', {
    description:
      'Placed by latitude and longitude, or by its address: a postal_code, or a city and state (or one address line holding them)',
    ...locatable,
  });

// "The logging rep never changes": a body may name the rep already there (a whole record sent
// back), never another.
const sameRep = (field: string) =>
  uuidInput()
    .optional()
    .openapi({
      description: `The rep who logged it never changes: ${field} may only name the rep already there`,
    });

export const PinUpdateSchema = z
  .object({
    ...patchShape({ knock_result: knockResult, ...place, ...person }),
    pin_type: z.enum(PIN_TYPES).optional().openapi({
      description:
        'knock or inspection. A door that became a job is pin_type job, and stays so: job may only be sent back unchanged',
    }),
    latitude: latitude.optional(),
    longitude: longitude.optional(),
    homeowner_name: homeownerName.nullable().optional().openapi({
      description:
        'Split into first and last where those are not sent; null (or "") forgets the name',
    }),
    created_by_id: sameRep('created_by_id'),
    created_by: sameRep('created_by'),
  })
  .openapi('PinUpdate');

export type PinCreate = z.output<typeof PinCreateSchema>;
export type PinUpdate = z.output<typeof PinUpdateSchema>;

export const PinListQuery = pagingQuery.extend({
  knock_result: knockResult.optional(),
  pin_type: z.enum(PIN_TYPES).optional(),
  created_by: uuidInput().optional().openapi({ description: 'The rep who logged it (a user id)' }),
});

export type PinListQuery = z.output<typeof PinListQuery>;
