import { z } from '@hono/zod-openapi';
import { toCent } from './cents';
import { stateCode } from './us-states';

// Field builders shared by the record resources, so one rule reads the same everywhere.

// No regex flags: the pattern is also the OpenAPI document's, where flags do not exist.
const UUID_FORM = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * A record id sent in a body or a query. Any 8-4-4-4-12 hex form is taken (zod's uuid() also
 * checks the version and variant digits, refusing ids a client may well make up for a test) and
 * upper case names the same record as lower case: svc's ids are lower case.
 */
export const uuidInput = () =>
  z
    .string()
    .regex(UUID_FORM, 'must be a UUID')
    .transform((v) => v.toLowerCase())
    .openapi({ format: 'uuid' });

/** A single-line text field; surrounding white space is dropped. */
export const text = (max: number) => z.string().trim().max(max);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) {
    return false;
  }
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}

/** spec, Conventions: dates are `YYYY-MM-DD`. */
export const date = () =>
  z
    .string()
    .refine(isCalendarDate, 'must be a date YYYY-MM-DD')
    .openapi({ format: 'date', example: '2026-05-14' });

/** decisions.md, Jobs: the most any money field of the API takes, in dollars. */
export const MAX_MONEY = 1_000_000_000;

/**
 * Money is a plain number of dollars; svc refuses negative amounts on records that hold them, and
 * keeps them to the cent, the bounds checked on what was sent (decisions.md, Money).
 */
export const money = () =>
  z
    .number()
    .min(0)
    .max(MAX_MONEY)
    .overwrite(toCent)
    .openapi({ description: 'Dollars; kept to the cent, halves rounded away from zero' });

/** A two-letter state code or a state name, stored as the code. */
export const usState = () =>
  z
    .string()
    .max(40)
    .transform((v, ctx) => {
      if (v.trim() === '') {
        return '';
      }
      const code = stateCode(v);
      if (code === undefined) {
        ctx.addIssue({ code: 'custom', message: 'must be a US state code or name' });
        return z.NEVER;
      }
      return code;
    })
    .openapi({ description: 'A two-letter code (TX) or a name (Texas)' });

// decisions.md: list items are trimmed, blanks dropped, repeats kept once.
const tidyList = (items: readonly string[]): string[] => [
  ...new Set(items.map((v) => v.trim()).filter((v) => v !== '')),
];

// decisions.md: each item at most 100 characters (trimmed), at most 100 of them.
const ITEM = 100;
const item = () => z.string().trim().max(ITEM);

/** An array of short strings (`trades`). */
export const stringArray = () => z.array(item()).max(ITEM).transform(tidyList);

/**
 * spec, Jobs: an array of strings, or one comma-separated string, whose items are held to the
 * same caps as the array's once it is split.
 */
export const stringList = () =>
  z
    .union([z.array(item()).max(ITEM), z.string().max(5000)])
    .transform((v, ctx) => {
      const items = tidyList(typeof v === 'string' ? v.split(',') : v);
      // Characters, as zod's max counts them (an emoji is one), not UTF-16 units.
      if (items.some((i) => [...i].length > ITEM)) {
        ctx.addIssue({ code: 'custom', message: `each item is at most ${ITEM} characters` });
        return z.NEVER;
      }
      if (items.length > ITEM) {
        ctx.addIssue({ code: 'custom', message: `at most ${ITEM} items` });
        return z.NEVER;
      }
      return items;
    })
    .openapi({ description: 'An array of strings, or one comma-separated string' });

const unsent = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/**
 * The optional fields of a create body: each may also be `null`, taken as not sent. A value the
 * service does not have is `null` (spec, Conventions), so a client that sends a whole record, its
 * unknown fields `null`, can create with it; the field is then `null`, or its default.
 */
export function createShape<S extends Record<string, z.ZodType>>(
  shape: S,
): { [K in keyof S]: z.ZodOptional<z.ZodType<z.output<S[K]> | undefined, z.input<S[K]> | null>> } {
  const out: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) {
    out[key] = schema.nullable().transform(unsent).optional();
  }
  return out as {
    [K in keyof S]: z.ZodOptional<z.ZodType<z.output<S[K]> | undefined, z.input<S[K]> | null>>;
  };
}

/** PATCH: `null` (and, where `blankClears`, an empty string) clears the field. */
export const cleared = <T>(value: T | null | undefined): T | null | undefined =>
  value === '' ? null : value;

/** The shape of a PATCH body: every field optional, and `null` clears it. */
export function patchShape<S extends Record<string, z.ZodType>>(
  shape: S,
): { [K in keyof S]: z.ZodOptional<z.ZodNullable<S[K]>> } {
  const out: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) {
    out[key] = schema.nullable().optional();
  }
  return out as { [K in keyof S]: z.ZodOptional<z.ZodNullable<S[K]>> };
}

const blankString = z.literal('');

/** spec, Conventions: for jobs an empty string clears a field as null does, whatever its type. */
export function blankablePatchShape<S extends Record<string, z.ZodType>>(
  shape: S,
): { [K in keyof S]: z.ZodOptional<z.ZodNullable<z.ZodUnion<[S[K], typeof blankString]>>> } {
  const out: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape)) {
    out[key] = z.union([schema, blankString]).nullable().optional();
  }
  return out as {
    [K in keyof S]: z.ZodOptional<z.ZodNullable<z.ZodUnion<[S[K], typeof blankString]>>>;
  };
}
