import type { z } from '@hono/zod-openapi';

interface Layout {
  keys: readonly string[];
  /** Every key at null, in order: copied whole, the copy has the record's shape from the start. */
  template: Record<string, null>;
}

const layouts = new WeakMap<object, Layout>();

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
  let layout = layouts.get(schema);
  if (layout === undefined) {
    const keys = Object.keys(schema.shape);
    layout = { keys, template: Object.fromEntries(keys.map((key) => [key, null])) };
    layouts.set(schema, layout);
  }
  const from = stored as Record<string, unknown>;
  const worked = computed as Record<string, unknown>;
  // Keys set one by one on an empty object made a new hidden class a key, past a few dozen a
  // dictionary: a twentieth of a POST /v1/jobs (issue 35). Only overwritten here, none added.
  const out: Record<string, unknown> = { ...layout.template };
  for (const key of layout.keys) {
    out[key] = (key in worked ? worked[key] : from[key]) ?? null;
  }
  return out as z.infer<S>;
}
