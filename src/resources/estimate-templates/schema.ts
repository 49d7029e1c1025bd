import { z } from '@hono/zod-openapi';
import { timestamp } from '../../platform/openapi/schemas';
import type { Rec } from '../../store';
import type { Line } from '../common/line-items';

export const EstimateTemplateSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('estimate_template'),
    name: z.string(),
    template_number: z.string(),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .openapi('EstimateTemplate');

/** A package of a good/better/best proposal: its own lines, on top of the shared scope. */
export interface Package {
  name: string;
  lines: Line[];
}

/** An optional upgrade, quoted outside the package price. */
export interface Upgrade {
  name: string;
  price: number;
}

/**
 * A template as stored: what GET shows, and the document an estimate made from it copies. Its
 * title and line names may hold smart fields (`{homeowner_name}`, `{carrier}`, ...), filled from
 * the job.
 */
export type EstimateTemplate = Rec &
  Omit<z.infer<typeof EstimateTemplateSchema>, 'id'> & {
    document_type: 'proposal' | 'estimate';
    title: string;
    line_items: Line[];
    packages: Package[];
    upgrades: Upgrade[];
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    estimate_templates: EstimateTemplate;
  }
}
