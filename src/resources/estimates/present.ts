import type { z } from '@hono/zod-openapi';
import { defineRecords, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { jobIsLive } from '../common/job';
import { estimateFigures } from './figures';
import { type Estimate, EstimateSchema } from './schema';

export const presentEstimate = (ctx: ServiceContext, e: Estimate): z.infer<typeof EstimateSchema> =>
  shape(EstimateSchema, e, {
    object: 'estimate',
    ...estimateFigures(e),
    pdf_url: `${ctx.appUrl}/estimates/${e.id}/pdf`,
    signed_pdf_url: e.signed_at ? `${ctx.appUrl}/estimates/${e.id}/signed.pdf` : null,
    url: `${ctx.appUrl}/estimates/${e.id}`,
    view_url: e.sent_at ? `${ctx.appUrl}/view/estimates/${e.id}` : null,
  });

/** Estimates as the API shows them; a deleted job's are gone with it. */
export const estimateRecords = defineRecords({
  coll: 'estimates',
  schema: EstimateSchema,
  present: presentEstimate,
  visible: (ctx, rec) => jobIsLive(ctx, rec.job_id),
  reads: [],
});
