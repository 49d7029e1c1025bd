/** A stored record: an immutable value. Writers replace records; nobody mutates one in place. */
export type Rec = Readonly<{ id: string }>;

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

export const FORMAT = 'svc-data';
export const FORMAT_VERSION = 1;

/** A scope's collections as the data file holds them: collection name -> id -> record. */
export type ScopeData = Record<string, Record<string, RawRecord>>;

/** A scope's collections as a start reads them: name -> records, by id or in a Map by id. */
export type LoadedScope = Record<string, Record<string, RawRecord> | Map<string, RawRecord>>;

/**
 * A workspace's part of the data file, kept as the bytes read and parsed on first use: a start
 * then pays only for the workspaces it touches (decisions.md, Store). A snapshot writes the
 * bytes back as they are. `collections` says where each collection lies in `bytes` (the layout's
 * spans, from the workspace's start) when the file's layout named them.
 */
export class UnparsedScope {
  constructor(
    readonly bytes: Uint8Array,
    readonly collections?: Readonly<Record<string, readonly [number, number]>>,
  ) {}

  parse(path: string): LoadedScope {
    const { buffer, byteOffset, byteLength } = this.bytes; // a view of the file's bytes, not a copy
    const bytes = Buffer.from(buffer, byteOffset, byteLength);
    if (this.collections !== undefined) {
      const loaded = recordsByLine(bytes, this.collections);
      if (loaded !== undefined) {
        return loaded;
      }
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

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;

/**
 * A workspace's records parsed a line at a time, each collection's span being `{`, then
 * `\n"<id>":<json>` lines separated by commas, then `}` (a record a line, as fold.ts writes it).
 * Why: parsing the workspace as one text held that text (as large as the workspace's bytes)
 * beside the bytes and the records made from it, a start's peak memory; a line at a time holds
 * one record's text. Undefined when a span is not in that shape (the caller parses it whole).
 */
function recordsByLine(
  bytes: Buffer,
  collections: Readonly<Record<string, readonly [number, number]>>,
): LoadedScope | undefined {
  const out: LoadedScope = {};
  try {
    for (const [name, [start, end]] of Object.entries(collections)) {
      if (bytes[start] !== OPEN || bytes[start + 1] !== NEWLINE || bytes[end - 1] !== CLOSE) {
        return undefined;
      }
      const records = new Map<string, RawRecord>();
      for (let at = start + 2; at < end; ) {
        let next = bytes.indexOf(NEWLINE, at);
        if (next === -1 || next > end) {
          next = end;
        }
        // The line ends in the comma before the next record, or in the collection's `}`.
        const last = next === end;
        const close = next - 1;
        if (bytes[close] !== (last ? CLOSE : COMMA) || bytes[at] !== QUOTE) {
          return undefined;
        }
        const [id, json] = idOf(bytes, at);
        records.set(id, JSON.parse(bytes.toString('utf8', json, close)) as RawRecord);
        at = next + 1;
      }
      out[name] = records;
    }
  } catch {
    return undefined; // a record that is no JSON: the whole parse says where
  }
  return out;
}

/** The id a record line at `at` starts with (`"<id>":`), and where its JSON starts. */
function idOf(bytes: Buffer, at: number): [id: string, json: number] {
  let escaped = false;
  let end = at + 1;
  for (; end < bytes.length; end++) {
    const byte = bytes[end];
    if (byte === BACKSLASH) {
      escaped = true;
      end += 1;
    } else if (byte === QUOTE) {
      break;
    }
  }
  if (bytes[end + 1] !== COLON) {
    throw new Error('a record line has no id');
  }
  const id = escaped
    ? (JSON.parse(bytes.toString('utf8', at, end + 1)) as string)
    : bytes.toString('utf8', at + 1, end);
  return [id, end + 2];
}

/** The data file: lowdb's JSON snapshot, readable and portable. */
export interface DataFile {
  format: typeof FORMAT;
  version: number;
  seq: number;
  global: ScopeData;
  workspaces: Record<string, ScopeData | UnparsedScope>;
}

export class StoreFileError extends Error {}
