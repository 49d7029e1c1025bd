import type { z } from '@hono/zod-openapi';
import type { Rec } from '../../store';
import type { WebhookSchema } from './schema';

/** A signing secret; one that is being rotated out keeps signing until `expires_at`. */
export interface Secret {
  secret: string;
  expires_at: string | null;
}

/** A subscription as stored: what GET shows of it, and what only svc keeps. */
export type Webhook = Rec &
  Omit<z.infer<typeof WebhookSchema>, 'id'> & {
    /** The credential that subscribed: only it lists, reads and deletes the subscription. */
    credential_id: string;
    /** Subscriptions made by one request share a group and one secret (spec, Signature 4). */
    group_id: string;
    secrets: Secret[];
    consecutive_failures: number;
    updated_at: string;
  };

/** The secrets that sign at `nowMs`: the current one, and rotated-out ones within their 24 hours. */
export const validSecrets = (hook: Pick<Webhook, 'secrets'>, nowMs: number): Secret[] =>
  hook.secrets.filter((s) => s.expires_at === null || Date.parse(s.expires_at) > nowMs);

export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000; // spec, Limits: secret rotation overlap

/**
 * spec, Signature verification 2: `secret` signs from now on, and every secret still valid keeps
 * signing for 24 hours more (one already counting down keeps its own end).
 */
export function rollSecret(hook: Webhook, secret: string, nowMs: number): Secret[] {
  const until = new Date(nowMs + ROTATION_OVERLAP_MS).toISOString();
  return [
    { secret, expires_at: null },
    ...validSecrets(hook, nowMs).map((s) => ({ ...s, expires_at: s.expires_at ?? until })),
  ];
}

declare module '../../store/collections' {
  interface WorkspaceCollections {
    webhooks: Webhook;
  }
}
