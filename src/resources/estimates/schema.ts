import { z } from '@hono/zod-openapi';
import { listOf, nullableTimestamp, timestamp } from '../../platform/openapi/schemas';
import { pagingQuery } from '../../platform/paging';
import type { Rec } from '../../store';
import { createShape, date, patchShape, text, uuidInput } from '../common/fields';
import { type Line, lineItems } from '../common/line-items';
import type { Package, Upgrade } from '../estimate-templates/api';

export const ESTIMATE_STATUSES = [
  'draft',
  'sent',
  'viewed',
  'signed',
  'expired',
  'declined',
] as const;
export type EstimateStatus = (typeof ESTIMATE_STATUSES)[number];

const nullable = z.string().nullable();

export const EstimateSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('estimate'),
    estimate_number: nullable,
    title: nullable,
    document_type: nullable,
    status: nullable.openapi({ description: ESTIMATE_STATUSES.join(', ') }),
    signature_status: nullable.openapi({
      description: 'pending once out for signature, then signed, declined or expired',
    }),
    total: z.number().nullable().openapi({
      description:
        'The package the homeowner chose, else the base package (or the one price, or the priced lines); null when it cannot be computed',
    }),
    package_totals: z
      .record(z.string(), z.number())
      .nullable()
      .openapi({ description: 'Price of every package by name (good, better, best)' }),
    upgrades_total: z
      .number()
      .nullable()
      .openapi({ description: 'Optional upgrades, quoted outside the package price' }),
    selected_tier: nullable,
    job_id: z.uuid().nullable(),
    valid_until: nullableTimestamp(),
    sent_at: nullableTimestamp(),
    first_viewed_at: nullableTimestamp(),
    last_viewed_at: nullableTimestamp(),
    signed_at: nullableTimestamp(),
    view_count: z.number().int(),
    signer_name: nullable,
    pdf_url: z.url().nullable(),
    signed_pdf_url: z.url().nullable(),
    created_at: timestamp(),
    updated_at: timestamp(),
    url: z.url(),
    view_url: z.url().nullable(),
  })
  .openapi('Estimate');

/** What GET shows of an estimate that svc works out from its document. */
type Worked =
  | 'url'
  | 'id'
  | 'pdf_url'
  | 'signed_pdf_url'
  | 'view_url'
  | 'total'
  | 'package_totals'
  | 'upgrades_total';

/**
 * An estimate as stored: its document (the scope of work, the packages, the upgrades, one price
 * for the whole job) beside what GET shows; the totals are worked out from the document.
 */
export type Estimate = Rec &
  Omit<z.infer<typeof EstimateSchema>, Worked> & {
    status: EstimateStatus;
    template_id: string | null;
    scope: Line[];
    packages: Package[];
    upgrades: Upgrade[];
    price: number | null;
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    estimates: Estimate;
  }
}

export const EstimateListSchema = listOf(EstimateSchema, 'EstimateList');

/** spec, Limits: an estimate's price is greater than 0. */
const price = () => z.number().gt(0, 'must be greater than 0').max(1_000_000_000);

export const EstimateCreateSchema = z
  .object({
    job_id: uuidInput(),
    ...createShape({
      template_id: uuidInput().openapi({ description: 'From /estimate_templates' }),
      title: text(300),
      price: price().openapi({ description: 'One price for the whole job' }),
      valid_until: date().openapi({ description: 'Defaults to 30 days after today' }),
      line_items: lineItems().openapi({
        description: 'The Scope of Work, without a template; omitted means the standard checklist',
      }),
    }),
  })
  .openapi('EstimateCreate');

export const EstimateUpdateSchema = z
  .object(
    patchShape({
      title: text(300),
      price: price().openapi({ description: 'null takes the price off' }),
      valid_until: date(),
    }),
  )
  .openapi('EstimateUpdate');

export type EstimateCreate = z.output<typeof EstimateCreateSchema>;
export type EstimateUpdate = z.output<typeof EstimateUpdateSchema>;

export const EstimateListQuery = pagingQuery.extend({
  status: z.enum(ESTIMATE_STATUSES).optional(),
  job_id: uuidInput().optional(),
  estimate_number: z.string().max(100).optional(),
});

export type EstimateListQuery = z.output<typeof EstimateListQuery>;
