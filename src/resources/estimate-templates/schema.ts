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

export type EstimateTemplate = Rec & {
  object: 'estimate_template';
  name: string;
  template_number: string;
  /** The scope of work an estimate made from this template copies. */
  line_items: TemplateLine[];
  created_at: string;
  updated_at: string;
};

declare module '../../store/collections' {
  interface WorkspaceCollections {
    estimate_templates: EstimateTemplate;
  }
}
