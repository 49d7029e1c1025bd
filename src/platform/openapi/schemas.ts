import { z } from '@hono/zod-openapi';
import { errorCodes } from '../errors';

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(errorCodes as [string, ...string[]]),
      message: z.string(),
      field: z.string().optional(),
      request_id: z.string(),
      doc_url: z.url(),
    }),
  })
  .openapi('Error');

/** spec, Conventions: lists are `{object:'list', data, has_more, next_cursor}`, newest first. */
export const listOf = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      object: z.literal('list'),
      data: z.array(item),
      has_more: z.boolean(),
      next_cursor: z.string().nullable(),
    })
    .openapi(name);

/**
 * A body that needs one field of each group (a field or its alias; a name, an email, a phone or
 * a company), as client generators read it: every group is an `anyOf` of one-field objects,
 * which openapi-typescript makes a union of `{name: string}` and `{job_name: string}`. The
 * object's own properties say the rest. `types` gives the fields that are not strings.
 */
type FieldSchema =
  | { type: 'string'; enum?: string[]; format?: 'uuid' }
  | { type: 'array'; items: { type: 'string' } };

export const requiresOneOf = (groups: string[][], types: Record<string, FieldSchema> = {}) => ({
  allOf: groups.map((fields) => ({
    anyOf: fields.map((field) => ({
      type: 'object' as const,
      properties: { [field]: types[field] ?? { type: 'string' as const } },
      required: [field],
    })),
  })),
});

export const DeletedSchema = z
  .object({ id: z.uuid(), object: z.string(), deleted: z.literal(true) })
  .openapi('Deleted');

export const timestamp = () =>
  z.string().openapi({ format: 'date-time', description: 'ISO 8601 in UTC with milliseconds' });
export const nullableTimestamp = () => timestamp().nullable();
