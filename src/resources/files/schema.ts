import { z } from '@hono/zod-openapi';
import { listOf, nullableTimestamp, timestamp } from '../../platform/openapi/schemas';
import type { Rec } from '../../store';

export const FILE_CATEGORIES = [
  'photo',
  'document',
  'scope',
  'estimate',
  'contract',
  'other',
] as const;

const nullable = z.string().nullable();

export const FileSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('file'),
    job_id: z.uuid().nullable(),
    name: z.string().meta({ example: 'roof-north-slope.jpg' }),
    category: z.string().meta({ description: FILE_CATEGORIES.join(', '), example: 'photo' }),
    mime_type: nullable,
    is_photo: z.boolean(),
    is_video: z.boolean(),
    size_bytes: z.number().int().nullable(),
    description: nullable,
    tags: z.array(z.string()),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    taken_at: nullableTimestamp(),
    uploaded_by_id: z.uuid().nullable(),
    uploaded_by_name: nullable,
    download_url: z.url(),
    created_at: timestamp(),
    url: z.url(),
  })
  .openapi('File');

export type FileRecord = Rec &
  Omit<z.infer<typeof FileSchema>, 'url' | 'id' | 'download_url' | 'uploaded_by_name'>;

declare module '../../store/collections' {
  interface WorkspaceCollections {
    files: FileRecord;
  }
}

export const FileListSchema = listOf(FileSchema, 'FileList');
