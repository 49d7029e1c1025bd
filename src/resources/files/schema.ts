import { z } from '@hono/zod-openapi';
import { listOf, nullableTimestamp, timestamp } from '../../platform/openapi/schemas';
import { pagingQuery } from '../../platform/paging';
import type { Rec } from '../../store';
import { stringList, text, uuidInput } from '../common/fields';

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

/** A file as stored: what GET shows but its links and its uploader's name, and where its bytes are. */
export type FileRecord = Rec &
  Omit<z.infer<typeof FileSchema>, 'url' | 'id' | 'download_url' | 'uploaded_by_name'> & {
    /**
     * Signs the file's download links (decisions.md, Files): a key of its own, kept with it, so a
     * link outlives a restart and works for no other file. A record without one has no bytes.
     */
    link_key?: string;
    /** `disk`: uploaded, kept beside the data file; `generated`: a seeded photo, made from the record. */
    bytes?: 'disk' | 'generated';
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    files: FileRecord;
  }
}

export const FileListSchema = listOf(FileSchema, 'FileList');

const category = z.enum(FILE_CATEGORIES);

/** decisions.md, Files: what GET /files narrows by, beside the paging and time filters. */
export const FileListQuery = pagingQuery.extend({
  job_id: uuidInput().optional(),
  category: category.optional(),
});

// decisions.md, Files: what an upload says of the file, in either form. Each field may be left
// out; `null` is as if it were.
const described = {
  job_id: uuidInput()
    .nullable()
    .optional()
    .openapi({ description: 'The job it belongs to; a file on no job when left out' }),
  category: category.nullable().optional().openapi({
    description: 'Default photo for an image or a video, else document',
  }),
  description: text(1000).nullable().optional().openapi({ description: 'A caption' }),
  tags: stringList().nullable().optional(),
  name: text(255)
    .min(1)
    .nullable()
    .optional()
    .openapi({ description: "Default: the part's filename, or the URL's last path segment" }),
};

export const FileUploadFieldsSchema = z.object(described);
export type FileUploadFields = z.output<typeof FileUploadFieldsSchema>;

/** The multipart form, for the document: busboy reads it, not this schema. */
export const FileUploadFormSchema = z
  .object({
    file: z.string().openapi({ format: 'binary', description: 'The bytes; at most 25 MB' }),
    ...described,
    tags: z.array(z.string().max(100)).max(100).optional().openapi({
      description:
        'Repeat the field for each tag, or send one comma-separated value; at most 100 tags of 100 characters',
    }),
  })
  .openapi('FileUploadForm');

export const FileUploadUrlSchema = z
  .object({
    url: z.string().openapi({
      format: 'uri',
      description:
        'An https URL svc fetches the file from; it must be publicly reachable (at most 25 MB)',
    }),
    ...described,
  })
  .openapi('FileUploadFromUrl');
