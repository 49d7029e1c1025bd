import { z } from '@hono/zod-openapi';
import { ApiError } from '../errors';
import type { ServiceContext } from '../service-context';

// The words a family declares its events in (spec, Events): what each event is called and
// carries, the filters it takes, and which changes raise it. The event deriver, the catalogue
// (GET /events), POST /webhooks and the samples all read these declarations.

/** A record as the API shows it, or a delivery body: JSON fields by name. */
export type Body = Record<string, unknown>;

/** `*` subscribes to every event, including events added later. */
export const WILDCARD = '*';

/** How a filter value is checked, as GET /events names it. */
export type FilterKind = 'stage' | 'pipeline' | 'user' | 'enum';

export interface FilterDef {
  key: string;
  label: string;
  kind: FilterKind;
  /** What GET /events lists: fixed values, or the workspace's own (its stage keys). */
  values?: readonly string[] | ((ctx: ServiceContext) => readonly string[]);
  /** The field of the record a filter reads, where it is not the key (assigned_to_id). */
  field?: string;
  /**
   * The value a subscription stores, or a 400 naming `filters.<key>`. `chosen` holds the values
   * already read (the pipeline comes first: a stage filter is read on the board it names).
   */
  check(ctx: ServiceContext, value: unknown, chosen: Readonly<Record<string, string>>): string;
}

/** spec, Filters: the 400 a filter value gets, naming `filters.<key>`. */
export const badFilter = (key: string, message: string) =>
  new ApiError('invalid_request', message, `filters.${key}`);

/** spec, Filters 2: each filter key takes one value (a string). */
export function filterText(key: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw badFilter(key, `filters.${key} takes one value, as a string`);
  }
  return value;
}

/** A filter whose value is one of `values`. */
export const enumFilter = (key: string, label: string, values: readonly string[]): FilterDef => ({
  key,
  label,
  kind: 'enum',
  values,
  check: (_ctx, value) => {
    const text = filterText(key, value);
    if (!values.includes(text)) {
      throw badFilter(key, `filters.${key} must be one of ${values.join(', ')}`);
    }
    return text;
  },
});

/** A yes-only filter (`is_appointment`): "true", or the JSON true, which reads as naturally. */
export const yesFilter = (key: string, label: string): FilterDef => {
  const only = enumFilter(key, label, ['true']);
  return {
    ...only,
    check: (ctx, value, chosen) => only.check(ctx, value === true ? 'true' : value, chosen),
  };
};

/** One occurrence of an event, derived from a committed change. */
export interface Occurrence {
  event: string;
  recordId: string;
  /** What the delivery carries: the record as GET returns it, or a deleted snapshot. */
  record: Body;
  /** The extra fields of this event (previous_stage, previous_assigned_to_id, ...). */
  extra: Body;
  /** What filters read: the record as GET returns it (as it was, for a deletion) and the extras. */
  match: Body;
  /** `*.updated`: the public fields that changed. These coalesce before they are sent. */
  changed?: string[];
}

/**
 * The occurrences a change raises, from the record as the API saw it before the change and sees
 * it after (undefined where it did not, or does not, see it: not made yet, deleted, on a deleted
 * job). A record coming into sight is created; going out of sight, deleted.
 */
export type Derive = (was: Body | undefined, now: Body | undefined) => Occurrence[];

/**
 * Whether a record, as GET shows it, is one a sample of `event` may show; `derive` is its rule.
 * `fields`: what such a record holds (a test send in a workspace with none shows them).
 */
export type About = ((body: Body, derive: Derive, event: string) => boolean) & { fields?: Body };

export interface EventDecl {
  event: string;
  label: string;
  description: string;
  filters?: readonly FilterDef[];
  /**
   * The event's own fields (spec, Delivery body), each with its default: the value a sample or
   * a test send carries, having no change to tell of.
   */
  extras?: z.ZodObject;
  /** A `*.deleted` event: the identifying fields its deleted snapshot carries (spec). */
  deleted?: readonly string[];
  /** Which records its samples may show; any the API sees when not given. */
  about?: About;
}

// An event's extra fields have no defaults: every delivery carries them, and a defaulted field
// would be optional in the document, so generated clients would type it so. A test send of a
// record that knows nothing carries each at its empty value (src/events/catalogue.ts).

/** spec, Delivery body: what a `*.updated` delivery adds. */
export const UPDATED = z.object({
  changed_fields: z
    .array(z.string())
    .openapi({ description: 'The public fields that changed (quick edits coalesce)' }),
});

/** A field an event adds that names what was before the change. */
export const previous = (description: string) => z.string().nullable().openapi({ description });

/** A family's events: their declarations, and the rule that derives them from a change. */
export interface Events {
  /** What the events carry (GET /events `resource`; a test send's `object` with no record). */
  resource: string;
  decls: readonly EventDecl[];
  derive: Derive;
}

export const occurrence = (
  event: string,
  record: Body,
  extra: Body = {},
  match = record,
): Occurrence => ({
  event,
  recordId: String(record.id),
  record,
  extra,
  match: { ...match, ...extra },
});

/** The public fields whose values differ, `updated_at` aside (it changes with every edit). */
export function changedFields(before: Body, after: Body): string[] {
  const out: string[] = [];
  for (const key of Object.keys(after)) {
    if (key !== 'updated_at' && JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      out.push(key);
    }
  }
  return out;
}

/** spec, Delivery body: a `*.deleted` delivery carries id, object, deleted and `fields`. */
export const deletedSnapshot = (record: Body, fields: readonly string[]): Body => ({
  id: record.id,
  object: record.object,
  deleted: true,
  ...Object.fromEntries(fields.map((f) => [f, record[f] ?? null])),
});

interface Lifecycle {
  created?: string;
  updated?: string;
  deleted?: string;
}

/**
 * A family's events: `lifecycle` names its created, updated and deleted events (raised as the
 * record comes into the API's sight, changes, or leaves it), `more` adds what else a change is.
 */
export function defineEvents(spec: {
  resource: string;
  decls: readonly EventDecl[];
  lifecycle?: Lifecycle;
  more?: Derive;
}): Events {
  const names = spec.lifecycle ?? {};
  const deletedFields = spec.decls.find((d) => d.event === names.deleted)?.deleted ?? [];
  const derive: Derive = (was, now) => {
    const out: Occurrence[] = [];
    if (now && !was && names.created) {
      out.push(occurrence(names.created, now));
    } else if (was && !now && names.deleted) {
      out.push(occurrence(names.deleted, deletedSnapshot(was, deletedFields), {}, was));
    } else if (was && now && names.updated) {
      const changed = changedFields(was, now);
      if (changed.length > 0) {
        out.push({ ...occurrence(names.updated, now), changed });
      }
    }
    return spec.more ? [...out, ...spec.more(was, now)] : out;
  };
  return { resource: spec.resource, decls: spec.decls, derive };
}

/** A status move: the record, seen before and after the change, now in `status` and not before. */
export const movedTo = (was: Body | undefined, now: Body | undefined, status: string): boolean =>
  was !== undefined && now !== undefined && now.status === status && was.status !== status;

/** Samples: a record whose coming into sight raises the event (the creations). */
export const comingIn: About = (body, derive, event) =>
  derive(undefined, body).some((o) => o.event === event);

/**
 * Samples: a record the event would be raised for, were it to change from `before(body)`;
 * `fields`, what such a record holds (completed: true for task.completed).
 */
export const raisedFrom = (before: (body: Body) => Body, fields?: Body): About =>
  Object.assign(
    (body: Body, derive: Derive, event: string) =>
      derive(before(body), body).some((o) => o.event === event),
    fields ? { fields } : {},
  );

/** Samples of events no rule raises yet (status moves): a record in the state they leave. */
export const whereField = (key: string, ...values: unknown[]): About =>
  Object.assign((body: Body) => values.includes(body[key]), { fields: { [key]: values[0] } });

/** `about`, saying what a record it is about holds. */
export const withFields = (about: About, fields: Body): About =>
  Object.assign((body: Body, derive: Derive, event: string) => about(body, derive, event), {
    fields,
  });

/** Samples: a record whose `key` holds something. */
export const whereSet =
  (key: string): About =>
  (body) =>
    body[key] !== null && body[key] !== undefined;
