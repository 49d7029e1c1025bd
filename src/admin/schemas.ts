import { z } from '@hono/zod-openapi';
import { timestamp } from '../platform/openapi/schemas';

export const KeyRefSchema = z.object({ id: z.uuid(), key: z.string() });

export const CreatedWorkspaceSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    keys: z.object({ write: KeyRefSchema, read: KeyRefSchema }),
    expires_at: timestamp()
      .nullable()
      .openapi({ description: 'When, on its clock, it deletes itself; null: never' }),
    control_token: z.string().openapi({
      description:
        "The workspace's control token (svc_ctl_…), shown once: the control API for this workspace alone",
    }),
    /** Made from a snapshot: its other live keys, each with a new secret (shown once). */
    other_keys: z
      .array(
        KeyRefSchema.extend({ access: z.enum(['write', 'read']), name: z.string() }).openapi(
          'AdminSnapshotKey',
        ),
      )
      .optional(),
  })
  .openapi('AdminCreatedWorkspace');

export const AdminKeySchema = z
  .object({
    id: z.uuid(),
    object: z.literal('api_key'),
    workspace_id: z.uuid(),
    name: z.string(),
    access: z.enum(['write', 'read']),
    prefix: z.string(),
    created_at: timestamp(),
    revoked_at: timestamp().nullable(),
  })
  .openapi('AdminApiKey');

export const AdminWorkspaceSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('workspace'),
    name: z.string(),
    subscription_active: z.boolean(),
    timezone: z.string(),
    created_at: timestamp(),
    updated_at: timestamp(),
    /** When, on the workspace's clock, it deletes itself (`expires_in_seconds`); null: never. */
    expires_at: timestamp().nullable(),
    keys: z.array(AdminKeySchema),
  })
  .openapi('AdminWorkspace');

export const DeletedWorkspaceSchema = z
  .object({ id: z.uuid(), object: z.literal('workspace'), deleted: z.literal(true) })
  .openapi('AdminDeletedWorkspace');

export const ClockSchema = z.object({ now: timestamp() }).openapi('AdminClock');
