import { constants } from 'node:fs';
import { type FileHandle, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { syncDirectory } from './fsync';
import { type Op, type RawRecord, type Scope, StoreFileError } from './types';

// The journal makes a write cost O(that write): each group commit appends one line holding one
// or more transactions, then fdatasyncs. A line is `<crc32 hex> <json>` then, for each record
// written, a tab and the record's JSON; json = {s, t} where s is the sequence number of the first
// transaction and t the transactions, each a list of ops, a put's record given as its number
// among the tab-separated parts (JSON text holds no raw tab). Why the records apart: a compaction
// folds them in as the text they are, never parsing one (fold.ts). Lines of earlier versions,
// records inline, are still read. The checksum frames the group: after a crash a torn last line
// is dropped whole (it was never acknowledged); a bad line anywhere else means the file is corrupt
// and svc refuses to start.
export interface JournalTx {
  seq: number;
  ops: Op[];
}

/**
 * A record as a compaction reads it: where its JSON lies in the line, as byte offsets, or the JSON
 * made from the record a line of an earlier version holds inline.
 */
export type RecordPart = readonly [start: number, end: number] | string;

/** A transaction as a compaction reads it, its records as parts of the line. */
export interface JournalPartTx {
  seq: number;
  ops: [Scope, string, string, RecordPart?][];
}

export function encodeGroup(txs: readonly JournalTx[]): string {
  const first = txs[0];
  if (first === undefined) {
    throw new Error('empty journal group');
  }
  let records = '';
  let n = 0;
  const op = ([scope, coll, id, rec, text]: Op) => {
    const head = `[${JSON.stringify(scope)},${JSON.stringify(coll)},${JSON.stringify(id)}`;
    if (rec === undefined) {
      return `${head}]`;
    }
    // The JSON a write kept for its record, when it did (tx.ts).
    records += `\t${text ?? JSON.stringify(rec)}`;
    return `${head},${n++}]`;
  };
  const json = `{"s":${first.seq},"t":[${txs.map((tx) => `[${tx.ops.map(op).join(',')}]`).join(',')}]}${records}`;
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/**
 * A write as a start replays it: the record as the JSON text the line holds (undefined for a
 * delete), parsed when its workspace is (decisions.md, Store).
 */
export type ReplayOp = [Scope, string, string, string?];

/** Replayed writes with their records parsed. */
export const parsed = (ops: readonly ReplayOp[]): Op[] =>
  ops.map(([scope, coll, id, text]) =>
    text === undefined ? [scope, coll, id] : [scope, coll, id, JSON.parse(text) as RawRecord],
  );

export interface ReplayTx {
  seq: number;
  ops: ReplayOp[];
}

/** A line's transactions, records as their JSON text; undefined when the line is not whole. */
export function decodeLine(line: string): ReplayTx[] | undefined {
  const space = line.indexOf(' ');
  const json = line.slice(space + 1);
  if (space !== 8 || Number.parseInt(line.slice(0, 8), 16) !== crc32(json)) {
    return undefined;
  }
  const tab = json.indexOf('\t');
  return decodeGroup(
    tab < 0 ? json : json.slice(0, tab),
    tab < 0 ? [] : json.slice(tab + 1).split('\t'),
    (text) => text,
    (rec) => JSON.stringify(rec),
  );
}

const SPACE = 0x20;
const TAB = 0x09;

/**
 * A line's transactions read from its bytes, each record as where its JSON lies: a compaction
 * writes it out as the bytes it is, and holds no text of it meanwhile.
 */
export function decodeLineParts(line: Buffer): JournalPartTx[] | undefined {
  if (line.indexOf(SPACE) !== 8) {
    return undefined;
  }
  const json = line.subarray(9);
  if (Number.parseInt(line.toString('latin1', 0, 8), 16) !== crc32(json)) {
    return undefined;
  }
  const tab = line.indexOf(TAB, 9);
  const parts: [number, number][] = [];
  for (let start = tab + 1; tab >= 0; ) {
    const next = line.indexOf(TAB, start);
    parts.push([start, next < 0 ? line.length : next]);
    if (next < 0) {
      break;
    }
    start = next + 1;
  }
  return decodeGroup(
    line.toString('utf8', 9, tab < 0 ? line.length : tab),
    parts,
    (part): RecordPart => part,
    (rec) => JSON.stringify(rec),
  );
}

/** A group's transactions from its JSON head and the parts its puts name by number. */
function decodeGroup<P, R>(
  head: string,
  parts: readonly P[],
  part: (part: P) => R,
  inline: (rec: RawRecord) => R,
): { seq: number; ops: [Scope, string, string, R?][] }[] | undefined {
  try {
    const group = JSON.parse(head) as {
      s: number;
      t: [Scope, string, string, (RawRecord | number)?][][];
    };
    return group.t.map((ops, i) => ({
      seq: group.s + i,
      ops: ops.map(([scope, coll, id, rec]) => {
        if (rec === undefined) {
          return [scope, coll, id];
        }
        if (typeof rec !== 'number') {
          return [scope, coll, id, inline(rec)];
        }
        const found = parts[rec];
        if (found === undefined) {
          throw new Error('a record the line does not hold');
        }
        return [scope, coll, id, part(found)];
      }),
    }));
  } catch {
    return undefined;
  }
}

export interface JournalRead {
  txs: ReplayTx[];
  goodBytes: number;
  totalBytes: number;
}

/**
 * The journal is opened for appending with O_DSYNC where the system has it: each group's write
 * returns once its bytes are on disk, one call to the thread pool where a write and an fdatasync
 * took two, and a group commit's wait is what the disk takes (issue 35). Elsewhere, the write is
 * followed by an fdatasync as before.
 */
const DSYNC = constants.O_DSYNC ?? 0;
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | DSYNC;

export class Journal {
  readonly path: string;
  #handle: FileHandle;
  #bytes: number;

  private constructor(path: string, handle: FileHandle, bytes: number) {
    this.path = path;
    this.#handle = handle;
    this.#bytes = bytes;
  }

  /** Reads a journal without creating or changing anything; null when there is none. */
  static async read(path: string): Promise<JournalRead | null> {
    const text = await readJournal(path);
    return text === null ? null : { ...parse(path, text), totalBytes: Buffer.byteLength(text) };
  }

  /** Opens (creating) the journal for appending, after `read` found it sound. */
  static async open(path: string, read: JournalRead | null): Promise<Journal> {
    const goodBytes = read?.goodBytes ?? 0;
    const handle = await open(path, APPEND_FLAGS);
    if (read && goodBytes < read.totalBytes) {
      // The torn tail of an interrupted append: never acknowledged, safe to cut.
      await handle.truncate(goodBytes);
      await handle.datasync();
    }
    return new Journal(path, handle, goodBytes);
  }

  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Sets this journal aside as `aside` and starts an empty one: writes go on into the new file
   * while `aside` is folded into the data file (fold.ts).
   */
  async rotate(aside: string): Promise<void> {
    await this.#handle.close();
    await rename(this.path, aside);
    this.#handle = await open(this.path, APPEND_FLAGS);
    await syncDirectory(dirname(this.path));
    this.#bytes = 0;
  }

  async append(line: string): Promise<void> {
    const buf = Buffer.from(line);
    await this.#handle.write(buf);
    if (DSYNC === 0) {
      await this.#handle.datasync();
    }
    this.#bytes += buf.length;
  }

  /** Empties the journal: everything in it is in the data file now. */
  async empty(): Promise<void> {
    await this.#handle.truncate(0);
    await this.#handle.datasync();
    this.#bytes = 0;
  }

  async close(): Promise<void> {
    await this.#handle.close();
  }
}

async function readJournal(path: string): Promise<string | null> {
  try {
    // Decoding the whole buffer at once is far quicker than readFile's streamed 'utf8'.
    return (await readFile(path)).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return null;
    }
    throw new StoreFileError(`cannot read journal ${path}: ${(err as Error).message}`);
  }
}

function parse(path: string, text: string): { txs: ReplayTx[]; goodBytes: number } {
  const txs: ReplayTx[] = [];
  let offset = 0;
  let goodBytes = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    const line = text.slice(offset, end === -1 ? text.length : end);
    const decoded = end === -1 ? undefined : decodeLine(line);
    if (decoded === undefined) {
      if (end === -1 || end === text.length - 1) {
        break; // torn last line
      }
      throw new StoreFileError(
        `journal ${path} is corrupt at byte ${Buffer.byteLength(text.slice(0, offset))}; ` +
          'svc will not overwrite it: move it aside or restore a backup',
      );
    }
    txs.push(...decoded);
    offset = end + 1;
    goodBytes += Buffer.byteLength(line) + 1;
  }
  return { txs, goodBytes };
}
