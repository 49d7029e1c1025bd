import { z } from '@hono/zod-openapi';
import { timestamp } from '../platform/openapi/schemas';

// decisions.md, Snapshots: a workspace's snapshot is svc's own output. The frame, the ids and the
// references svc follows are checked; the records are taken as svc wrote them.

/** A stored record as a snapshot holds it: an id and the fields svc wrote. */
export const StoredRecordSchema = z
  .looseObject({ id: z.string().min(1).max(200) })
  .openapi('SnapshotRecord', {
    description: 'A record as svc stores it',
    additionalProperties: true,
  });

const CollectionName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, 'a collection name is lower case letters, digits and _');

const SnapshotKey = z
  .object({
    id: z.uuid(),
    object: z.literal('api_key'),
    workspace_id: z.uuid(),
    name: z.string(),
    access: z.enum(['write', 'read']),
    prefix: z.string(),
    created_at: timestamp(),
    revoked_at: timestamp().nullable(),
    /** sha256 of the key, hex: the key itself is never stored, and never leaves. */
    hash: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex'),
  })
  .openapi('SnapshotApiKey');

export const WORKSPACE_SNAPSHOT = 'svc-workspace-snapshot';

export const WorkspaceSnapshotSchema = z
  .object({
    format: z.literal(WORKSPACE_SNAPSHOT),
    version: z.literal(1),
    svc_version: z.string(),
    taken_at: timestamp().openapi({ description: 'When it was taken, on the virtual clock' }),
    workspace: z.object({
      id: z.uuid(),
      object: z.literal('workspace'),
      name: z.string().min(1).max(200),
      subscription_active: z.boolean(),
      timezone: z.string().min(1),
      created_at: timestamp(),
      updated_at: timestamp(),
    }),
    keys: z.array(SnapshotKey),
    /** Every collection of the workspace: its records, webhook subscriptions and deliveries. */
    collections: z.record(CollectionName, z.array(StoredRecordSchema)),
    /** Answers remembered for Idempotency-Key replays (24 hours), by the workspace's credentials. */
    idempotency: z.array(StoredRecordSchema),
    /** OAuth connections to the workspace, with their tokens and codes (as hashes). */
    oauth: z.object({
      connections: z.array(StoredRecordSchema),
      tokens: z.array(StoredRecordSchema),
      codes: z.array(StoredRecordSchema),
    }),
    /** Uploaded files' bytes, base64, by file id. */
    file_bytes: z.record(z.uuid(), z.base64()),
  })
  .openapi('WorkspaceSnapshot');

export type WorkspaceSnapshot = z.infer<typeof WorkspaceSnapshotSchema>;
export type StoredRecord = z.infer<typeof StoredRecordSchema>;
