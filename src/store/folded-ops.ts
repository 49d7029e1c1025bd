import { type FileHandle, open } from 'node:fs/promises';
import { decodeLineParts, type JournalPartTx } from './journal';
import { linesOf } from './lines';
import { DROP, type Scope, StoreFileError } from './types';

/**
 * Where a record's JSON lies in the journals, as bytes of one of them (its index among those
 * folded), or its JSON itself (a line of an earlier version held the record inline).
 */
export type RecordText = { journal: number; start: number; end: number } | string;

/** What the journals say of one record in the end: its JSON, or undefined when deleted. */
export interface Folded {
  text: RecordText | undefined;
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
 * where its JSON lies: a compaction holds which records changed, never their text (which it reads
 * back as it writes them, JournalTexts) nor the journal whole. Transactions at or below `afterSeq`
 * are already in the data file and skipped.
 */
export async function foldJournals(
  paths: readonly string[],
  afterSeq: number,
): Promise<{ ops: FoldedOps; seq: number; dropped: Set<Scope> }> {
  const ops: FoldedOps = new Map();
  /** Workspaces dropped whole: the fold leaves them out, body and layout. */
  const dropped = new Set<Scope>();
  let seq = afterSeq;
  let order = 0;
  for (const [journal, path] of paths.entries()) {
    for await (const { at, group } of journalLines(path)) {
      for (const tx of group) {
        if (tx.seq <= afterSeq) {
          continue;
        }
        seq = Math.max(seq, tx.seq);
        for (const [scope, coll, id, rec] of tx.ops) {
          if (coll === DROP) {
            ops.delete(scope);
            dropped.add(scope);
            continue;
          }
          const entry = entryOf(ops, scope, coll, id);
          if (rec === undefined) {
            entry.moved = true;
            entry.text = undefined;
          } else {
            if (entry.text === undefined) {
              entry.order = order++;
            }
            entry.text =
              typeof rec === 'string' ? rec : { journal, start: at + rec[0], end: at + rec[1] };
          }
        }
      }
    }
  }
  return { ops, seq, dropped };
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
async function* journalLines(path: string): AsyncGenerator<{ at: number; group: JournalPartTx[] }> {
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
      const group = decodeLineParts(line);
      if (group === undefined) {
        badAt = at;
      } else {
        yield { at, group };
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

const WINDOW_BYTES = 1 << 20;

/**
 * Reads records' JSON back from the journals being folded. Records new to a collection are asked
 * for in the order they were written (`inOrder`), so a window read ahead serves most of them; a
 * changed record, met where the data file has it, is read alone unless the window holds it.
 */
export class JournalTexts {
  readonly #paths: readonly string[];
  readonly #handles = new Map<number, FileHandle>();
  #window = { journal: -1, start: 0, bytes: Buffer.alloc(0) };

  constructor(paths: readonly string[]) {
    this.#paths = paths;
  }

  async bytes(text: RecordText, inOrder: boolean): Promise<Buffer | string> {
    if (typeof text === 'string') {
      return text;
    }
    const { journal, start, end } = text;
    const window = this.#window;
    if (
      window.journal === journal &&
      start >= window.start &&
      end <= window.start + window.bytes.length
    ) {
      return window.bytes.subarray(start - window.start, end - window.start);
    }
    const want = inOrder ? Math.max(WINDOW_BYTES, end - start) : end - start;
    const bytes = Buffer.allocUnsafe(want);
    const { bytesRead } = await (await this.#handle(journal)).read(bytes, 0, want, start);
    if (bytesRead < end - start) {
      throw new StoreFileError(`journal ${this.#paths[journal]} ends before byte ${end}`);
    }
    if (inOrder) {
      this.#window = { journal, start, bytes: bytes.subarray(0, bytesRead) };
    }
    return bytes.subarray(0, end - start);
  }

  async #handle(journal: number): Promise<FileHandle> {
    let handle = this.#handles.get(journal);
    if (handle === undefined) {
      const path = this.#paths[journal];
      if (path === undefined) {
        throw new Error(`no journal ${journal}`);
      }
      handle = await open(path, 'r');
      this.#handles.set(journal, handle);
    }
    return handle;
  }

  async close(): Promise<void> {
    for (const handle of this.#handles.values()) {
      await handle.close();
    }
    this.#handles.clear();
  }
}
