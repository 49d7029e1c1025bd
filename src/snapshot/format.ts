import { z } from '@hono/zod-openapi';

// decisions.md, Snapshots: a workspace's snapshot is svc's own output. The frame, the ids and the
// references svc follows are checked; the records are taken as svc wrote them.

/** A stored record as a snapshot holds it: an id and the fields svc wrote. */
/** A record as a snapshot holds it: an id and the fields svc wrote. */
export type StoredRecord = { id: string } & Record<string, unknown>;

const isStoredRecord = (value: unknown): value is StoredRecord => {
  const id = (value as { id?: unknown } | null)?.id;
  return (
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof id === 'string' &&
    id.length > 0 &&
    id.length <= 200
  );
};

// A custom check, not an object schema: a demo workspace holds thousands of records, and
// walking each one's fields through zod was a sixth of what a restore cost. Their fields are
// checked as the API shows them (checkShown), which says more than a shape could.
export const StoredRecordSchema = z
  .custom<StoredRecord>(isStoredRecord, { message: 'a record is an object with a string id' })
  .openapi('SnapshotRecord', {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', minLength: 1, maxLength: 200 } },
    additionalProperties: true,
    description: 'A record as svc stores it',
  });

// Instants a snapshot carries are ISO date-times, as svc writes them.
const timestamp = () => z.iso.datetime().openapi({ format: 'date-time' });

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
      /** How far its clock was ahead of the server's: a restore brings its clock back with it. */
      clock_offset_ms: z.number().int().min(0).optional(),
      /** When, on its clock, it deletes itself; null or absent: never. */
      expires_at: timestamp().nullable().optional(),
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
