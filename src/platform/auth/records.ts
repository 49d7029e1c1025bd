import type { Rec } from '../../store';

export type Workspace = Rec & {
  object: 'workspace';
  name: string;
  subscription_active: boolean;
  /** The workspace's local time zone: dates such as "today" for a payment are read in it. */
  timezone: string;
  created_at: string;
  updated_at: string;
  /**
   * How far the workspace's clock is ahead of the server's, in ms (decisions.md, Clock); absent in
   * a data file written before workspaces had clocks of their own, and then 0.
   */
  clock_offset_ms?: number;
  /** When, on its clock, the workspace deletes itself (`expires_in_seconds`); null: never. */
  expires_at?: string | null;
};

export type Access = 'write' | 'read';

export type ApiKey = Rec & {
  object: 'api_key';
  workspace_id: string;
  name: string;
  access: Access;
  /** The first characters, to tell keys apart in a list; the key itself is never stored. */
  prefix: string;
  created_at: string;
  revoked_at: string | null;
};

/** sha256 of a key → its id: the one lookup a request makes to find its credential. */
export type KeyHash = Rec & { key_id: string };

declare module '../../store/collections' {
  interface GlobalCollections {
    workspaces: Workspace;
    api_keys: ApiKey;
    key_hashes: KeyHash;
  }
}
