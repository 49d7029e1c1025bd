import { z } from '@hono/zod-openapi';
import { listOf, timestamp } from '../../platform/openapi/schemas';
import type { Rec } from '../../store';

// spec, Pin: the knock results, and the pin types the Filters table lists.
export const KNOCK_RESULTS = [
  'interested',
  'not_interested',
  'contacted',
  'no_answer',
  'door_hanger',
  'follow_up',
  'appointment_scheduled',
  'dont_knock',
  'renter',
  'no_damage',
  'cash_quote',
  'lost',
] as const;
export const PIN_TYPES = ['knock', 'inspection', 'job'] as const;
/** spec, PATCH /pins/{id}: what a client sets; `job` is what a door that became a job is. */
export const SETTABLE_PIN_TYPES = ['knock', 'inspection'] as const;

export type KnockResult = (typeof KNOCK_RESULTS)[number];
export type PinType = (typeof PIN_TYPES)[number];

const nullable = z.string().nullable();

export const PinSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('pin'),
    pin_type: z.string().meta({
      description: 'knock or inspection; job once the door became a job',
      example: 'knock',
    }),
    knock_result: nullable.openapi({ description: KNOCK_RESULTS.join(', ') }),
    address: nullable.openapi({ description: 'The street line' }),
    city: nullable,
    state: nullable.openapi({ description: 'Two-letter code' }),
    postal_code: nullable,
    latitude: z.number(),
    longitude: z.number(),
    homeowner_name: nullable.openapi({
      description: 'First and last name together; null when no name is known',
    }),
    homeowner_first_name: nullable,
    homeowner_last_name: nullable,
    phone: nullable,
    email: nullable,
    notes: nullable,
    job_id: z.uuid().nullable().openapi({ description: 'Set once the door became a job' }),
    created_by_id: z.uuid().openapi({ description: 'The rep who logged it; never changes' }),
    created_by_name: z.string().meta({ example: 'Avery Brooks' }),
    created_at: timestamp(),
    updated_at: timestamp(),
    map_url: z.url().openapi({ description: 'The canvassing map, at this pin' }),
    url: z.url(),
  })
  .openapi('Pin');

/** A pin as stored: what GET shows but its rep's name and its links. */
export type Pin = Rec &
  Omit<z.infer<typeof PinSchema>, 'id' | 'object' | 'created_by_name' | 'map_url' | 'url'> & {
    object: 'pin';
    pin_type: PinType;
    knock_result: KnockResult | null;
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    pins: Pin;
  }
}

export const PinListSchema = listOf(PinSchema, 'PinList');
