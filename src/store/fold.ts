import { type FileHandle, open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ChunkWriter } from './chunks';
import {
  type DataFileSource,
  ParsedSource,
  type ScopeSource,
  ShapeError,
} from './data-file-sources';
import { type LayoutUse, openSource } from './fold-source';
import {
  type Folded,
  type FoldedOps,
  foldJournals,
  JournalTexts,
  type RecordText,
} from './folded-ops';
import { syncDirectory } from './fsync';
import { CRC_LINE, type FullLayout, LAYOUT_LINE, type Span } from './layout';
import { checkStopped, type Pace, REST_PER_WORK } from './pace';
import { recordIdAt } from './record-lines';
import { FORMAT, FORMAT_VERSION, GLOBAL } from './types';

// Compaction folds journals into the data file by streaming: the old file is copied span by span,
// a scope or collection no journal touched as its bytes, a touched one a record line at a time
// with the journals' last word on each record put in its place; records new to a collection
// follow its others. Memory holds what changed, never the store, and nothing here needs the
// server's records: it runs in a worker thread (compactor.ts), off the requests' event loop.

export interface FoldResult {
  /** Size of the data file now. */
  bytes: number;
  seq: number;
  /** False when the journals held nothing the file lacked: it was left as it was. */
  written: boolean;
  /** The data file was parsed whole, its layout missing or not in the shape it claims. */
  whole: boolean;
}

/**
 * Writes `dataPath` anew holding the journals' transactions (oldest journal first). `trusted`:
 * the file is as svc wrote it (its checksum held when the store read it, or a fold wrote it
 * since), so its layout is taken without reading the file through for the checksum first.
 */
export async function foldIntoDataFile(
  dataPath: string,
  journals: readonly string[],
  pace: Pace = { paced: false },
  trusted = false,
): Promise<FoldResult> {
  try {
    return await fold(dataPath, journals, trusted ? 'trusted' : 'checked', pace);
  } catch (err) {
    if (!(err instanceof ShapeError)) {
      throw err; // FoldStopped among them
    }
    // A file not in the shape its layout claims (edited by hand with its checksum redone):
    // parsed whole once, it is written in the shape again.
    return fold(dataPath, journals, 'whole', pace);
  }
}

async function fold(
  dataPath: string,
  journals: readonly string[],
  use: LayoutUse,
  pace: Pace,
): Promise<FoldResult> {
  const opened = await openSource(dataPath, use, pace);
  try {
    const { ops, seq, dropped } = await foldJournals(journals, opened.source.seq);
    const whole = opened.source instanceof ParsedSource && opened.bytes > 0;
    if (ops.size === 0 && dropped.size === 0 && opened.bytes > 0) {
      return { bytes: opened.bytes, seq, written: false, whole };
    }
    const texts = new JournalTexts(journals);
    try {
      const bytes = await writeDataFile(
        dataPath,
        (w) => writeContents(w, opened.source, { ops, texts, dropped }, seq),
        pace,
      );
      return { bytes, seq, written: true, whole };
    } finally {
      await texts.close();
    }
  } finally {
    await opened.handle?.close();
  }
}

const SYNC_EVERY_BYTES = 16 * 1024 * 1024;
const WORK_SLICE_MS = 40;

/** Writes the data file through a temporary one, on disk before it takes the file's name. */
async function writeDataFile(
  dataPath: string,
  body: (w: ChunkWriter) => Promise<void>,
  pace: Pace = { paced: false },
): Promise<number> {
  const temp = join(dirname(dataPath), `.${basename(dataPath)}.tmp`);
  const handle = await open(temp, 'w');
  let bytes = 0;
  let unsynced = 0;
  // One flush in flight while the next bytes are made: the copying and the disk overlap, where
  // waiting on each flush added the disk's time to the fold's (a shutdown's final fold most).
  let syncing: Promise<void> = Promise.resolve();
  let working = performance.now();
  const rest = async () => {
    checkStopped(pace);
    const worked = performance.now() - working;
    if (pace.paced && worked >= WORK_SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, worked * REST_PER_WORK));
      working = performance.now();
    }
  };
  const w = new ChunkWriter(async (parts) => {
    unsynced += await writeAll(handle, parts);
    if (unsynced >= SYNC_EVERY_BYTES) {
      // A file of hundreds of MB flushed by one fsync at the end holds up the journal's
      // fdatasyncs behind it (the file system orders them), and with them every write's answer.
      unsynced = 0;
      await syncing;
      syncing = handle.datasync();
      syncing.catch(() => {}); // awaited before the next flush or the end, which see its failure
    }
  }, rest);
  try {
    await body(w);
    bytes = await w.end((crc) => `${CRC_LINE}${crc}}\n`);
    await syncing;
    await handle.sync();
  } finally {
    await w.settled(); // a write under way ends before the file is closed
    await syncing.catch(() => {}); // and so does a flush
    await handle.close();
  }
  await rename(temp, dataPath);
  await syncDirectory(dirname(dataPath));
  return bytes;
}

/** Writes every byte of `parts` (one gathering write, again for what a short write left). */
async function writeAll(handle: FileHandle, parts: Uint8Array[]): Promise<number> {
  let left = parts;
  let total = 0;
  for (const part of parts) {
    total += part.length;
  }
  for (let written = 0; written < total; ) {
    const { bytesWritten } = await handle.writev(left);
    written += bytesWritten;
    left = unwritten(left, bytesWritten);
  }
  return total;
}

/** The parts after the first `skip` bytes. */
function unwritten(parts: Uint8Array[], skip: number): Uint8Array[] {
  let i = 0;
  for (; i < parts.length && skip >= (parts[i] as Uint8Array).length; i++) {
    skip -= (parts[i] as Uint8Array).length;
  }
  const out = parts.slice(i);
  if (out.length > 0 && skip > 0) {
    out[0] = (out[0] as Uint8Array).subarray(skip);
  }
  return out;
}

/**
 * The data file: `{"format","version","seq","global":{...},"workspaces":{...}` then the layout
 * line. Leaves the CRC line to the caller (it covers every byte written here).
 */
async function writeContents(
  w: ChunkWriter,
  source: DataFileSource,
  changes: Changes,
  seq: number,
): Promise<void> {
  const { ops } = changes;
  await w.text(`{"format":"${FORMAT}","version":${FORMAT_VERSION},"seq":${seq},"global":`);
  const globalAt = w.at;
  const collections: FullLayout['collections'] = {};
  collections[GLOBAL] = await writeScope(w, source.scope(GLOBAL), changes, ops.get(GLOBAL));
  const layout: FullLayout = {
    workspaces_at: 0,
    workspaces: {},
    global: [globalAt, w.at],
    collections,
  };
  await w.text(',"workspaces":');
  layout.workspaces_at = w.at;
  await w.text('{');
  let first = true;
  const workspace = async (id: string, scope: ScopeSource | undefined) => {
    await w.text(`${first ? '' : ','}\n${JSON.stringify(id)}:`);
    first = false;
    const start = w.at;
    collections[id] = await writeScope(w, scope, changes, ops.get(id));
    layout.workspaces[id] = [start, w.at];
  };
  const old = new Set(source.workspaces());
  for (const id of old) {
    // A dropped workspace is left out, its id with it.
    if (!changes.dropped.has(id)) {
      await workspace(id, source.scope(id));
    }
  }
  for (const id of ops.keys()) {
    if (id !== GLOBAL && !old.has(id)) {
      await workspace(id, undefined);
    }
  }
  await w.text('}');
  await w.text(`${LAYOUT_LINE}${JSON.stringify(layout)}`);
}

/** What the journals changed, and where to read the records they wrote. */
interface Changes {
  ops: FoldedOps;
  texts: JournalTexts;
  /** Workspaces dropped whole since the data file was written. */
  dropped: ReadonlySet<string>;
}

const OPEN_FIRST = Buffer.from('{\n');
const NEXT = Buffer.from(',\n');
const NEWLINE = 0x0a;
const COMMA = 0x2c;

/** A scope's value: copied whole when nothing in it changed. Answers its collections' spans. */
async function writeScope(
  w: ChunkWriter,
  source: ScopeSource | undefined,
  { texts }: Changes,
  touched: Map<string, Map<string, Folded>> | undefined,
): Promise<Record<string, Span>> {
  if (source?.copy && touched === undefined) {
    return source.copy(w);
  }
  const spans: Record<string, Span> = {};
  let first = true;
  const header = async (name: string) => {
    await w.text(`${first ? '' : ','}${JSON.stringify(name)}:`);
    first = false;
  };
  await w.text('{');
  const seen = new Set<string>();
  for (const coll of source?.collections() ?? []) {
    seen.add(coll.name);
    const changes = touched?.get(coll.name);
    if (changes === undefined && coll.copy) {
      await header(coll.name);
      spans[coll.name] = await coll.copy(w);
    } else {
      await writeCollection(w, coll.name, coll.recordLines(), changes, header, spans, texts);
    }
  }
  for (const [name, changes] of touched ?? []) {
    if (!seen.has(name)) {
      await writeCollection(w, name, [], changes, header, spans, texts);
    }
  }
  await w.text('}');
  return spans;
}

/**
 * A collection's value, the journals' changes put in: a record keeps its place when changed,
 * is left out when deleted, and one added (or deleted and added again) follows the others, as a
 * Map in memory orders them. A collection left empty is not written, as a data file made from memory did not.
 * Lines no journal touched are copied as runs of bytes, not one by one.
 */
async function writeCollection(
  w: ChunkWriter,
  name: string,
  pieces: AsyncIterable<Buffer> | Iterable<Buffer>,
  changes: Map<string, Folded> | undefined,
  header: (name: string) => Promise<void>,
  spans: Record<string, Span>,
  texts: JournalTexts,
): Promise<void> {
  let start = -1;
  /** Starts the collection or separates what follows from the record before it. */
  const separate = async () => {
    if (start < 0) {
      await header(name);
      start = w.at;
      w.push(OPEN_FIRST);
    } else {
      w.push(NEXT);
    }
  };
  const put = async (bytes: Uint8Array) => {
    await separate();
    await w.bytes(bytes);
  };
  // A record the journals wrote: `"<id>":` then its JSON as the journal holds it.
  const putWritten = async (id: string, text: RecordText, inOrder: boolean) => {
    await separate();
    w.push(`${JSON.stringify(id)}:`);
    const json = await texts.bytes(text, inOrder);
    await (typeof json === 'string' ? w.text(json) : w.bytes(json));
  };
  let ended = false; // the last record (no comma after it) was met
  for await (const piece of pieces) {
    if (ended) {
      throw new ShapeError(`a record of ${name} follows its last`);
    }
    // A run of lines kept as they are: from the start of one to the end of another's record.
    let runFrom = -1;
    let runTo = -1;
    for (let at = 0; at < piece.length; ) {
      let next = piece.indexOf(NEWLINE, at);
      let to: number; // where the record ends: before its comma
      if (next === -1) {
        ended = true;
        next = to = piece.length;
      } else if (piece[next - 1] === COMMA) {
        to = next - 1;
      } else {
        throw new ShapeError(`a record of ${name} is not followed by a comma`);
      }
      const id = changes === undefined ? undefined : recordId(piece, at);
      const change = id === undefined ? undefined : changes?.get(id);
      if (id === undefined || change === undefined) {
        runFrom = runFrom < 0 ? at : runFrom;
        runTo = to;
      } else {
        if (runFrom >= 0) {
          await put(piece.subarray(runFrom, runTo));
          runFrom = -1;
        }
        change.inFile = true;
        if (!change.moved && change.text !== undefined) {
          await putWritten(id, change.text, false);
        }
      }
      at = next + 1;
    }
    if (runFrom >= 0) {
      await put(piece.subarray(runFrom, runTo));
    }
  }
  const added = [...(changes ?? [])]
    .filter(([, change]) => change.text !== undefined && (change.moved || !change.inFile))
    .sort(([, a], [, b]) => a.order - b.order);
  for (const [id, change] of added) {
    if (change.text !== undefined) {
      await putWritten(id, change.text, true);
    }
  }
  if (start >= 0) {
    await w.text('}');
    spans[name] = [start, w.at];
  }
}

/** The id a record line at `at` starts with: `"<id>":`. */
function recordId(piece: Buffer, at: number): string {
  const found = recordIdAt(piece, at);
  if (found === undefined) {
    throw new ShapeError('a record line does not start with its id');
  }
  return found[0];
}
