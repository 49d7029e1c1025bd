import { z } from '@hono/zod-openapi';
import type { Rec } from '../../store';

export const StageSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('pipeline_stage'),
    pipeline_id: z.uuid(),
    key: z.string().openapi({ description: 'What to send and filter on' }),
    label: z.string().openapi({ description: 'The column as the board names it, for display' }),
    order: z.number().int(),
    is_completed: z.boolean(),
    is_lost: z.boolean(),
  })
  .openapi('PipelineStage');

export const PipelineSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('pipeline'),
    name: z.string(),
    is_default: z.boolean(),
    order: z.number().int(),
    stages: z.array(StageSchema),
  })
  .openapi('Pipeline');

export type Pipeline = Rec & {
  object: 'pipeline';
  name: string;
  is_default: boolean;
  order: number;
  created_at: string;
  updated_at: string;
};

export type Stage = Rec & {
  object: 'pipeline_stage';
  pipeline_id: string;
  key: string;
  label: string;
  order: number;
  is_completed: boolean;
  is_lost: boolean;
  created_at: string;
  updated_at: string;
};

declare module '../../store/collections' {
  interface WorkspaceCollections {
    pipelines: Pipeline;
    stages: Stage;
  }
}
