import { z } from '@hono/zod-openapi';
import type { Rec } from '../../store';

// spec, Lookups: `role` values are not shown; decisions.md lists the ones svc uses.
export const ROLES = [
  'owner',
  'admin',
  'manager',
  'sales_rep',
  'project_manager',
  'office',
  'crew',
] as const;

export const UserSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('user'),
    name: z.string(),
    email: z.string(),
    role: z.string().openapi({ description: `One of ${ROLES.join(', ')}; treat as open` }),
  })
  .openapi('User');

/** A teammate as stored: what GET shows, with their phone and when they joined. */
export type User = Rec &
  Omit<z.infer<typeof UserSchema>, 'id'> & {
    object: 'user';
    role: (typeof ROLES)[number];
    phone: string | null;
    created_at: string;
    updated_at: string;
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    users: User;
  }
}
