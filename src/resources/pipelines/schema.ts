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

interface Stamps {
  created_at: string;
  updated_at: string;
}

/** A board as stored: what GET shows but its columns (records of their own). */
export type Pipeline = Rec & Omit<z.infer<typeof PipelineSchema>, 'id' | 'stages'> & Stamps;

/** A column as stored: what GET shows. */
export type Stage = Rec & Omit<z.infer<typeof StageSchema>, 'id'> & Stamps;

declare module '../../store/collections' {
  interface WorkspaceCollections {
    pipelines: Pipeline;
    stages: Stage;
  }
}
