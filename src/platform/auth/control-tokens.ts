import { createHash, timingSafeEqual } from 'node:crypto';
import type { Rec, TxScope } from '../../store';
import type { GlobalCollections } from '../../store/collections';
import { randomToken, sha256Hex } from '../ids';

/**
 * A workspace's control token (`svc_ctl_…`): the control API for that workspace alone
 * (decisions.md, Control API access). Kept as its sha256, as API keys are; shown once, when the
 * workspace is made.
 */
export type ControlToken = Rec & {
  object: 'control_token';
  workspace_id: string;
  created_at: string;
};

declare module '../../store/collections' {
  interface GlobalCollections {
    control_tokens: ControlToken;
  }
}

export const CONTROL_TOKEN_PREFIX = 'svc_ctl_';

/** Makes workspace `workspaceId` a control token; answers the token, to be shown once. */
export function mintControlToken(
  tx: TxScope<GlobalCollections>,
  workspaceId: string,
  now: string,
): string {
  const token = randomToken(CONTROL_TOKEN_PREFIX);
  tx.put('control_tokens', {
    id: sha256Hex(token),
    object: 'control_token',
    workspace_id: workspaceId,
    created_at: now,
  });
  return token;
}

/** Whether `given` is `wanted`, compared in constant time (their sha256s: lengths differ). */
export function sameSecret(given: string, wanted: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(wanted));
}
