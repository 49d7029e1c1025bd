import { recordsOfSpan } from './record-lines';

/** A stored record: an immutable value. Writers replace records; nobody mutates one in place. */
export type Rec = Readonly<{ id: string }>;

/**
 * A new record's template: every key the record has, in its order, the ones each create sets
 * left `undefined` (a create that forgets one is a type error). A create overrides it
 * (`{ ...TEMPLATE, id, ... }`) and adds no key. Why: V8 in Node 20 gives an object literal that
 * starts with a spread a new hidden class for each key added after it, in the old generation, so
 * a create of 13 added keys made 18 KB of garbage there; one that only overrides keys shares the
 * template's (decisions.md, Store).
 */
export type Template<T, Set extends keyof T> = {
  [K in keyof T]-?: K extends Set ? undefined : T[K];
};

/** A record as JSON holds it, in the journal and the data file: an id and any fields. */
export type RawRecord = Readonly<{ id: string } & Record<string, unknown>>;

/** Where a page of a list starts: just after this record, newest first. */
export interface Position {
  created_at: string;
  id: string;
}

/** What a scan of a collection takes: newest first, after a position, filtered, up to a limit. */
export interface ScanOptions<T> {
  after?: Position | undefined;
  /** Only records whose `field` is `value` (a string): read through an index, not a scan. */
  on?: { field: string; value: string } | undefined;
  where?: ((rec: T) => boolean) | undefined;
  limit: number;
}

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

/**
 * One write as journalled: [scope, collection, id, record] or, for a delete, no record. A write
 * committed in this process carries the record's JSON too, for the journal line; a journal read
 * back has none.
 */
export type Op = [Scope, string, string, RawRecord?, string?];

/**
 * The collection (and id) of the op that drops a workspace scope whole: `[scope, DROP, DROP]`,
 * journalled as a delete, so a line that holds one reads as every other. No collection is
 * named so.
 */
export const DROP = '*';

export const FORMAT = 'svc-data';
export const FORMAT_VERSION = 1;

/** A scope's collections as the data file holds them: collection name -> id -> record. */
export type ScopeData = Record<string, Record<string, RawRecord>>;

/**
 * A scope's collections as a start reads them: name -> records, by id, in a Map by id, or still
 * the data file's bytes, parsed when the collection is first read.
 */
export type LoadedScope = Record<
  string,
  Record<string, RawRecord> | Map<string, RawRecord> | SpanRecords
>;

/**
 * A collection of a workspace as the data file holds it, parsed the first time it is read: a
 * list of jobs then parses the jobs and what they show (contacts, users, stages), not a
 * workspace's notes, timeline and money (issue 35: a 10k-job workspace's first page parsed 42 MB
 * where it reads 20).
 */
export class SpanRecords {
  constructor(
    readonly bytes: Buffer,
    readonly start: number,
    readonly end: number,
    readonly path: string,
  ) {}

  parse(): Map<string, RawRecord> {
    const byLine = recordsOfSpan(this.bytes, this.start, this.end);
    if (byLine !== undefined) {
      return byLine;
    }
    let data: unknown;
    try {
      data = JSON.parse(this.bytes.toString('utf8', this.start, this.end));
    } catch (err) {
      throw new StoreFileError(`data file ${this.path} is damaged: ${(err as Error).message}`);
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new StoreFileError(`data file ${this.path} is damaged: a collection is not an object`);
    }
    return new Map(Object.entries(data as Record<string, RawRecord>));
  }
}

/** A workspace's bytes as the data file holds them, and where each collection lies in them. */
export interface ScopeBytes {
  bytes: Uint8Array;
  /** Collection -> [start, end) in `bytes`; undefined unless the layout's spans tile the workspace. */
  collections?: Readonly<Record<string, readonly [number, number]>> | undefined;
}

/**
 * A workspace's part of the data file, parsed on first use: a start then pays only for the
 * workspaces it touches (decisions.md, Store). Its bytes are those read at start, or read from
 * the file when it is parsed (a start that trusted the file without reading it through).
 */
export class UnparsedScope {
  constructor(readonly load: () => ScopeBytes) {}

  parse(path: string): LoadedScope {
    const { bytes: view, collections } = this.load();
    const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength); // a view, not a copy
    if (collections !== undefined) {
      const out: LoadedScope = {};
      for (const [name, [start, end]] of Object.entries(collections)) {
        out[name] = new SpanRecords(bytes, start, end, path);
      }
      return out;
    }
    let data: unknown;
    try {
      data = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      throw new StoreFileError(`data file ${path} is damaged: ${(err as Error).message}`);
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new StoreFileError(`data file ${path} is damaged: a workspace is not an object`);
    }
    return data as ScopeData;
  }
}

/** The data file's contents: one JSON document, readable and portable. */
export interface DataFileContents {
  format: typeof FORMAT;
  version: number;
  seq: number;
  global: ScopeData;
  workspaces: Record<string, ScopeData | UnparsedScope>;
}

/** A store with nothing in it yet: what a new PostgreSQL schema reads as. */
export const emptyContents = (): DataFileContents => ({
  format: FORMAT,
  version: FORMAT_VERSION,
  seq: 0,
  global: {},
  workspaces: {},
});

export class StoreFileError extends Error {}

/**
 * A write to a workspace dropped earlier (a request that began before its workspace was deleted
 * and wrote after): refused whole, as the workspace is no more.
 */
export class ScopeDropped extends Error {
  constructor(readonly scope: Scope) {
    super(`workspace ${scope} is deleted: nothing more is written to it`);
  }
}
