/** A stored record: an immutable value. Writers replace records; nobody mutates one in place. */
export type Rec = Readonly<{ id: string }>;

/** A record as JSON holds it, in the journal and the data file: an id and any fields. */
export type RawRecord = Readonly<{ id: string } & Record<string, unknown>>;

/** Where a record lives: the global scope or one workspace. */
export const GLOBAL = 'g';
export type Scope = string;

export interface Change {
  scope: Scope;
  coll: string;
  id: string;
  before: Rec | undefined;
  after: Rec | undefined;
}

/** One write as journalled: [scope, collection, id, record] or, for a delete, no record. */
export type Op = [Scope, string, string, RawRecord?];

export const FORMAT = 'svc-data';
export const FORMAT_VERSION = 1;

/** The data file: lowdb's JSON snapshot, readable and portable. */
export interface DataFile {
  format: typeof FORMAT;
  version: number;
  seq: number;
  global: Record<string, Record<string, RawRecord>>;
  workspaces: Record<string, Record<string, Record<string, RawRecord>>>;
}

export class StoreFileError extends Error {}
