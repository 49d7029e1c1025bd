import { z } from '@hono/zod-openapi';
import { listOf, timestamp } from '../../platform/openapi/schemas';
import { pagingQuery } from '../../platform/paging';
import type { Rec } from '../../store';
import { uuidInput } from '../common/fields';

/** A note as stored: what GET shows but its author's name and link. */
export type Note = Rec &
  Omit<z.infer<typeof NoteSchema>, 'id' | 'object' | 'author_name' | 'url'> & {
    object: 'note';
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    notes: Note;
  }
}

export const NoteSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('note'),
    job_id: z.uuid(),
    content: z.string().meta({ example: 'Hail hits on the north slope.' }),
    author_id: z
      .uuid()
      .nullable()
      .openapi({ description: 'null for a note written through the API' }),
    author_name: z.string().nullable(),
    created_at: timestamp(),
    updated_at: timestamp(),
    url: z.url(),
  })
  .openapi('Note');

/** spec, Limits: note content up to 10,000 characters. */
export const noteContent = () =>
  z
    .string()
    .max(10_000)
    .refine((v) => v.trim() !== '', 'content must not be empty');

export const NoteCreateSchema = z
  .object({ job_id: uuidInput(), content: noteContent() })
  .openapi('NoteCreate');

export const NoteListQuery = pagingQuery.extend({ job_id: uuidInput().optional() });

export const NoteListSchema = listOf(NoteSchema, 'NoteList');
