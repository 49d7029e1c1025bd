import { z } from '@hono/zod-openapi';
import { listOf, nullableTimestamp, timestamp } from '../../platform/openapi/schemas';
import type { Rec } from '../../store';

const nullable = z.string().nullable();

export const EstimateSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('estimate'),
    estimate_number: nullable,
    title: nullable,
    document_type: nullable,
    status: nullable.openapi({ description: 'draft, sent, viewed, signed, expired, declined' }),
    signature_status: nullable,
    total: z.number().nullable(),
    package_totals: z.record(z.string(), z.number()).nullable(),
    upgrades_total: z.number().nullable(),
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

export type Estimate = Rec &
  Omit<z.infer<typeof EstimateSchema>, 'url' | 'id' | 'pdf_url' | 'signed_pdf_url' | 'view_url'>;

declare module '../../store/collections' {
  interface WorkspaceCollections {
    estimates: Estimate;
  }
}

export const EstimateListSchema = listOf(EstimateSchema, 'EstimateList');
