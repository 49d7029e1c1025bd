import type { GlobalStore, TxScope } from '../../store';
import type { GlobalCollections } from '../../store/collections';
import type { Clocks } from '../clock';
import { newId, randomToken, sha256Hex } from '../ids';
import type { Access, ApiKey } from './records';

// spec, Authentication: a credential is an API key or an OAuth access token; both belong to one
// workspace and are full access or read only. Each kind is found by its prefix, so OAuth tokens
// (svc_oat_) slot in beside keys (svc_live_) with a resolver of their own.
export interface Credential {
  /** `app`: a person acting in the web app (the control API stands for it). */
  kind: 'api_key' | 'oauth_token' | 'app';
  id: string;
  workspaceId: string;
  access: Access;
  name: string;
  /**
   * Set on a revoked key (or a retired, expired or disconnected OAuth token): refused (401), yet
   * the call was made with it and is logged.
   */
  revoked?: true;
}

/** `clocks`: each workspace's clock, for credentials that expire (OAuth access tokens, 3600 s). */
export type Resolver = (
  global: GlobalStore,
  token: string,
  clocks: Clocks,
) => Credential | undefined;

const resolvers = new Map<string, Resolver>();

export function registerCredentialKind(prefix: string, resolve: Resolver): void {
  resolvers.set(prefix, resolve);
}

/** The credential a token names, revoked or not: for the request log, which keeps both. */
export function identifyCredential(
  global: GlobalStore,
  token: string,
  clocks: Clocks,
): Credential | undefined {
  for (const [prefix, resolve] of resolvers) {
    if (token.startsWith(prefix)) {
      return resolve(global, token, clocks);
    }
  }
  return undefined;
}

/** The credential a token names, if it still lets a call through. */
export function resolveCredential(
  global: GlobalStore,
  token: string,
  clocks: Clocks,
): Credential | undefined {
  const credential = identifyCredential(global, token, clocks);
  return credential?.revoked ? undefined : credential;
}

export const API_KEY_PREFIX = 'svc_live_';

// Keys are random, so a plain sha256 is the right "scrambled form": nothing to brute-force, and
// the lookup by hash compares no secret byte by byte.
// The hash of a key a client keeps sending is remembered (bounded): hashing is the costliest
// step of a request's authentication. Revocation is read from the record every time.
const hashes = new Map<string, string>();
function hashOf(token: string): string {
  let hash = hashes.get(token);
  if (hash === undefined) {
    hash = sha256Hex(token);
    if (hashes.size >= 10_000) {
      hashes.clear();
    }
    hashes.set(token, hash);
  }
  return hash;
}

registerCredentialKind(API_KEY_PREFIX, (global, token) => {
  const hash = global.get('key_hashes', hashOf(token));
  const key = hash && global.get('api_keys', hash.key_id);
  if (!key) {
    return undefined;
  }
  return {
    kind: 'api_key',
    id: key.id,
    workspaceId: key.workspace_id,
    access: key.access,
    name: key.name,
    ...(key.revoked_at === null ? {} : { revoked: true }),
  };
});

export interface MintedKey {
  record: ApiKey;
  key: string;
}

/** Stores a new key (only its hash); the plain key is returned once, to be shown once. */
export function mintApiKey(
  tx: TxScope<GlobalCollections>,
  input: {
    workspaceId: string;
    name: string;
    access: Access;
    now: string;
    key?: string;
    id?: string;
  },
): MintedKey {
  const key = input.key ?? randomToken(API_KEY_PREFIX);
  const record: ApiKey = {
    id: input.id ?? newId(),
    object: 'api_key',
    workspace_id: input.workspaceId,
    name: input.name,
    access: input.access,
    prefix: key.slice(0, API_KEY_PREFIX.length + 4),
    created_at: input.now,
    revoked_at: null,
  };
  tx.put('api_keys', record);
  tx.put('key_hashes', { id: sha256Hex(key), key_id: record.id });
  return { record, key };
}

export function keyHashExists(global: GlobalStore, key: string): boolean {
  return global.get('key_hashes', sha256Hex(key)) !== undefined;
}

/** The credential of app-side actions: what a person does in the web app, as its owner. */
export const appCredential = (workspaceId: string): Credential => ({
  kind: 'app',
  id: 'app',
  workspaceId,
  access: 'write',
  name: 'web app',
});
