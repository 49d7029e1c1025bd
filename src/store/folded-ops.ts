import { type FileHandle, open } from 'node:fs/promises';
import { decodeLineTexts, type JournalTextTx } from './journal';
import { linesOf } from './lines';
import { type Scope, StoreFileError } from './types';

/** What the journals say of one record in the end: its JSON, or undefined when deleted. */
export interface Folded {
  text: string | undefined;
  /**
   * Deleted at some point: a record of the data file does not keep its place, it goes after the
   * others as a Map does with a key deleted and set again.
   */
  moved: boolean;
  /** When it was (last) added: records new to a collection follow in this order. */
  order: number;
  /** Met while copying the data file: it was there before. */
  inFile: boolean;
}

/** Scope -> collection -> id -> what the journals made of it, in the order each first appeared. */
export type FoldedOps = Map<Scope, Map<string, Map<string, Folded>>>;

const READ_BYTES = 1 << 20;

/**
 * Reads journals (oldest first) line by line and keeps only the last word on each record, as
 * JSON text: a compaction holds what changed, never the journal whole. Transactions at or below
 * `afterSeq` are already in the data file and skipped.
 */
export async function foldJournals(
  paths: readonly string[],
  afterSeq: number,
): Promise<{ ops: FoldedOps; seq: number }> {
  const ops: FoldedOps = new Map();
  let seq = afterSeq;
  let order = 0;
  for (const path of paths) {
    for await (const group of journalLines(path)) {
      for (const tx of group) {
        if (tx.seq <= afterSeq) {
          continue;
        }
        seq = Math.max(seq, tx.seq);
        for (const [scope, coll, id, rec] of tx.ops) {
          const entry = entryOf(ops, scope, coll, id);
          if (rec === undefined) {
            entry.moved = true;
            entry.text = undefined;
          } else {
            if (entry.text === undefined) {
              entry.order = order++;
            }
            entry.text = rec;
          }
        }
      }
    }
  }
  return { ops, seq };
}

function entryOf(ops: FoldedOps, scope: Scope, coll: string, id: string): Folded {
  let colls = ops.get(scope);
  if (colls === undefined) {
    colls = new Map();
    ops.set(scope, colls);
  }
  let recs = colls.get(coll);
  if (recs === undefined) {
    recs = new Map();
    colls.set(coll, recs);
  }
  let entry = recs.get(id);
  if (entry === undefined) {
    entry = { text: undefined, moved: false, order: -1, inFile: false };
    recs.set(id, entry);
  }
  return entry;
}

/**
 * A journal's groups, a line at a time. The last line may be torn by a crash mid-append (it was
 * never acknowledged) and is no group, as when a start reads the journal (journal.ts); a bad line
 * anywhere else means the file is corrupt.
 */
async function* journalLines(path: string): AsyncGenerator<JournalTextTx[]> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return;
    }
    throw err;
  }
  try {
    let badAt = -1;
    for await (const { line, at, ended } of linesOf(chunksOf(handle))) {
      if (badAt >= 0 && (ended || line.length > 0)) {
        throw new StoreFileError(`journal ${path} is corrupt at byte ${badAt}`);
      }
      if (!ended) {
        return; // nothing, or a torn append
      }
      const group = decodeLineTexts(line.toString('utf8'));
      if (group === undefined) {
        badAt = at;
      } else {
        yield group;
      }
    }
  } finally {
    await handle.close();
  }
}

async function* chunksOf(handle: FileHandle): AsyncGenerator<Buffer> {
  for (;;) {
    const chunk = Buffer.allocUnsafe(READ_BYTES);
    const { bytesRead } = await handle.read(chunk, 0, READ_BYTES, null);
    if (bytesRead === 0) {
      return;
    }
    yield chunk.subarray(0, bytesRead);
  }
}
