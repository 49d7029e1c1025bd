import { z } from '@hono/zod-openapi';
import { listOf, nullableTimestamp, timestamp } from '../../platform/openapi/schemas';
import { pagingQuery } from '../../platform/paging';
import type { Rec } from '../../store';
import type { Area } from './area';

// spec, Storm list states: building, then ready, partial or failed (decisions: storm lists).
export const STORM_LIST_STATUSES = ['building', 'ready', 'partial', 'failed'] as const;
export type StormListStatus = (typeof STORM_LIST_STATUSES)[number];
export const STORM_LIST_SOURCES = ['auto', 'manual'] as const;
export const AREA_KINDS = ['drawn', 'radius'] as const;
export const PROPERTY_USES = [
  'single_family',
  'townhouse',
  'condo',
  'multi_family',
  'mobile_home',
  'commercial',
  'vacant_land',
] as const;
export type PropertyUse = (typeof PROPERTY_USES)[number];
export const EXCLUDE_REASONS = [
  'no_owner_name',
  'generic_owner_name',
  'no_mailing_address',
  'incomplete_mailing_address',
  'foreign_mailing_address',
] as const;
export type ExcludeReason = (typeof EXCLUDE_REASONS)[number];

// The example is what a test send in a workspace with no list carries (it reads `meta()`).
const day = () => z.string().openapi({ format: 'date' }).meta({ example: '2026-05-14' });
const nullable = z.string().nullable();

export const StormListSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('storm_list'),
    name: z.string().meta({ example: 'North side hail' }),
    status: z.string().meta({ description: STORM_LIST_STATUSES.join(', '), example: 'ready' }),
    source: z.string().meta({
      description: 'auto (nightly build off hail data) or manual (built by a person)',
      example: 'manual',
    }),
    window_from: day(),
    window_to: day(),
    min_size_in: z.number().openapi({ description: 'Smallest hail a property had, in inches' }),
    area_kind: z.string().meta({
      description: 'drawn (a shape drawn on the map) or radius (a circle round a point)',
      example: 'drawn',
    }),
    territory_id: z.uuid().nullable(),
    clipped_area_sq_mi: z.number().openapi({
      description: 'The part of the area where hail of min_size_in or more fell; 0 while building',
    }),
    property_cap: z.number().int(),
    property_count: z.number().int(),
    skipped_duplicates: z.number().int().openapi({
      description: 'Addresses left out for being on a list built within dedupe_days',
    }),
    dedupe_days: z.number().int(),
    credits_spent: z.number().int().openapi({ description: 'One data credit per property' }),
    total_available: z.number().int().openapi({
      description:
        'Properties the list could hold (duplicates left out); over property_cap: partial',
    }),
    storm_date: day().nullable().openapi({
      description: 'The day most of its properties had their hail; null while building or failed',
    }),
    built_at: nullableTimestamp().openapi({ description: 'When the build finished' }),
    created_at: timestamp(),
    updated_at: timestamp(),
    url: z.url(),
  })
  .openapi('StormList');

/**
 * A storm list as stored: what GET shows, less its link, and what the build was asked for (its
 * area and when it finishes on the clock).
 */
export type StormList = Rec &
  Omit<z.infer<typeof StormListSchema>, 'url' | 'id'> & {
    status: StormListStatus;
    area: Area;
    build_due_at: string | null;
  };

export const StormListPropertySchema = z
  .object({
    id: z.uuid(),
    object: z.literal('storm_list_property'),
    storm_list_id: z.uuid(),
    address: z.string(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
    owner_name: nullable.openapi({ description: 'null when the records name no owner' }),
    owner_occupied: z.boolean(),
    mailing_address: nullable,
    mailing_city: nullable,
    mailing_state: nullable,
    mailing_zip: nullable,
    mail_deliverable: z.boolean().openapi({
      description:
        "svc's own judgement from the address held (not a postal validation): false exactly where the owner name or the mailing address is unusable",
    }),
    mail_exclude_reason: nullable.openapi({
      description: `Why mail_deliverable is false: ${EXCLUDE_REASONS.join(', ')}; null when it is true`,
    }),
    hail_size_in: z.number(),
    hail_event_date: day(),
    nearest_report_mi: z.number().nullable().openapi({
      description: 'Distance to the nearest ground report of that day; null when radar only',
    }),
    nearest_report_size_in: z.number().nullable(),
    year_built: z.number().int().nullable().openapi({ description: 'null for vacant land' }),
    property_use: z
      .string()
      .meta({ description: PROPERTY_USES.join(', '), example: 'single_family' }),
    is_residential: z.boolean(),
    latitude: z.number(),
    longitude: z.number(),
    created_at: timestamp(),
  })
  .openapi('StormListProperty');

export type StormListProperty = Rec &
  Omit<z.infer<typeof StormListPropertySchema>, 'id' | 'property_use'> & {
    property_use: PropertyUse;
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    storm_lists: StormList;
    storm_list_properties: StormListProperty;
  }
}

export const StormListListSchema = listOf(StormListSchema, 'StormListList');
export const StormListPropertyListSchema = listOf(StormListPropertySchema, 'StormListPropertyList');

export const StormListQuery = pagingQuery.extend({
  status: z.enum(STORM_LIST_STATUSES).optional(),
});
export type StormListQuery = z.output<typeof StormListQuery>;

const yesNo = (description: string) =>
  z.enum(['true', 'false']).optional().openapi({ description });

export const PropertyQuery = pagingQuery.extend({
  mailable: yesNo(
    'true: only properties with a usable mailing address and owner name; false: only the others',
  ),
  residential: yesNo('true: only residential properties; false: only the others'),
});
export type PropertyQuery = z.output<typeof PropertyQuery>;
