import { z } from '@hono/zod-openapi';
import { timestamp } from '../platform/openapi/schemas';
import { StoredRecordSchema, WorkspaceSnapshotSchema } from '../snapshot/format';

export const BUNDLE = 'svc-bundle';

const LoggedRequestSchema = z
  .looseObject({
    id: z.string(),
    at: timestamp(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    key_id: z.string(),
    workspace_id: z.string(),
  })
  .openapi('BundleRequest', {
    description: 'A request log entry, as GET /__admin/requests shows it',
    additionalProperties: true,
  });

const BundleFaultSchema = z
  .object({
    id: z.string().regex(/^flt_[0-9a-f]{16}$/, 'a fault id, flt_ and 16 hex digits'),
    object: z.literal('fault'),
    match: z.looseObject({}).openapi({ additionalProperties: true }),
    action: z.looseObject({}).openapi({ additionalProperties: true }),
    times: z.number().int().min(1).nullable(),
    remaining: z.number().int().min(0).nullable(),
    probability: z.number().min(0).max(1),
    seed: z.number().int().min(0),
    fired: z.number().int().min(0),
    state: z.enum(['active', 'spent']),
    created_at: timestamp(),
  })
  .openapi('BundleFault', { description: 'A fault as GET /__admin/faults shows it' });

/**
 * One support case in one file: a workspace as it stood, what it was sent, what it delivered,
 * the clock and the faults, with every secret replaced (decisions.md, Support bundles).
 */
export const BundleSchema = z
  .object({
    // `format` first: a reader tells a bundle from a data file by the file's first bytes.
    format: z.literal(BUNDLE),
    version: z.literal(1),
    manifest: z
      .object({
        svc_version: z.string(),
        interface_revision: z.string(),
        created_at: timestamp().openapi({ description: 'When it was made, real time' }),
        workspace_id: z.uuid(),
        workspace_name: z.string(),
        counts: z.object({
          records: z.number().int(),
          requests: z.number().int(),
          deliveries: z.number().int(),
          faults: z.number().int(),
        }),
        redacted: z.array(z.string()),
      })
      .openapi('BundleManifest'),
    clock: z
      .object({ now: z.iso.datetime().openapi({ format: 'date-time' }), offset_ms: z.number() })
      .openapi('BundleClock'),
    snapshot: WorkspaceSnapshotSchema,
    /** The workspace's request log, oldest first. */
    requests: z.array(LoggedRequestSchema),
    /** The workspace's delivery log: every delivery with its attempts, oldest first. */
    deliveries: z.array(StoredRecordSchema),
    /** Faults that were active and could touch the workspace. */
    faults: z.array(BundleFaultSchema),
  })
  .openapi('SupportBundle');

export type Bundle = z.infer<typeof BundleSchema>;
