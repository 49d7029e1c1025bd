import type { z } from '@hono/zod-openapi';

const keysOf = new WeakMap<object, readonly string[]>();

/**
 * A record as its schema shows it: every field of `schema`, in the schema's order, from
 * `computed` where the presenter works it out (its links, what it reads of other records) and
 * from the stored record otherwise. A field is declared once, in the schema, and a record shows
 * it; one the record was stored without (made before the field existed) shows as null, a value
 * svc does not have (spec, Conventions).
 */
export function shape<S extends z.ZodObject>(
  schema: S,
  stored: object,
  computed: Partial<z.infer<S>>,
): z.infer<S> {
  let keys = keysOf.get(schema);
  if (keys === undefined) {
    keys = Object.keys(schema.shape);
    keysOf.set(schema, keys);
  }
  const from = stored as Record<string, unknown>;
  const worked = computed as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    out[key] = (key in worked ? worked[key] : from[key]) ?? null;
  }
  return out as z.infer<S>;
}
