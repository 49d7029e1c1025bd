import { z } from '@hono/zod-openapi';
import { timestamp } from '../../platform/openapi/schemas';
import type { Rec } from '../../store';

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

export interface TemplateLine {
  name: string;
  quantity: number;
  unit_price: number;
  taxable: boolean;
}

/** A template as stored: what GET shows, and the scope of work an estimate from it copies. */
export type EstimateTemplate = Rec &
  Omit<z.infer<typeof EstimateTemplateSchema>, 'id'> & {
    line_items: TemplateLine[];
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    estimate_templates: EstimateTemplate;
  }
}
