import type { z } from '@hono/zod-openapi';
import { shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { type EstimateTemplate, EstimateTemplateSchema } from './schema';

export const presentTemplate = (t: EstimateTemplate): z.infer<typeof EstimateTemplateSchema> =>
  shape(EstimateTemplateSchema, t, {});

/** spec, Estimates: workspace templates, most recently changed first, up to `limit`. */
export function listTemplates(ctx: ServiceContext, limit: number): EstimateTemplate[] {
  return [...ctx.ws.values('estimate_templates')]
    .sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0))
    .slice(0, limit);
}
