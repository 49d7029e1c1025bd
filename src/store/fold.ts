import { type FileHandle, open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { crc32 } from 'node:zlib';
import { ChunkWriter } from './chunks';
import {
  type DataFileSource,
  ParsedSource,
  type ScopeSource,
  ShapeError,
  SpanSource,
} from './data-file-sources';
import {
  type Folded,
  type FoldedOps,
  foldJournals,
  JournalTexts,
  type RecordText,
} from './folded-ops';
import { syncDirectory } from './fsync';
import {
  CRC_LINE,
  type FullLayout,
  fileView,
  findTail,
  LAYOUT_LINE,
  type Layout,
  type Span,
} from './layout';
import { recordIdAt } from './record-lines';
import { FORMAT, FORMAT_VERSION, GLOBAL, StoreFileError } from './types';

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
 * Whether a fold rests twice as long as it works (WORK_SLICE_MS at a time): while the server
 * answers, so that on a machine of two cores it takes a third of one from the requests, not all
 * of it. `stopped`: the server is shutting down, and folds this fold's journal and the one
 * written since in one pass; this fold gives up at its next step (FoldStopped).
 */
export interface Pace {
  paced: boolean;
  stopped?: boolean;
}

/** A fold given up because it was told to stop; the data file is as it was. */
export class FoldStopped extends Error {}

function checkStopped(pace: Pace): void {
  if (pace.stopped) {
    throw new FoldStopped('the fold was stopped');
  }
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

/** How a fold reads the data file's layout: as it is, once its checksum holds, or not at all. */
type LayoutUse = 'trusted' | 'checked' | 'whole';

async function fold(
  dataPath: string,
  journals: readonly string[],
  use: LayoutUse,
  pace: Pace,
): Promise<FoldResult> {
  const opened = await openSource(dataPath, use, pace);
  try {
    const { ops, seq } = await foldJournals(journals, opened.source.seq);
    const whole = opened.source instanceof ParsedSource && opened.bytes > 0;
    if (ops.size === 0 && opened.bytes > 0) {
      return { bytes: opened.bytes, seq, written: false, whole };
    }
    const texts = new JournalTexts(journals);
    try {
      const bytes = await writeDataFile(
        dataPath,
        (w) => writeContents(w, opened.source, { ops, texts }, seq),
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
const REST_PER_WORK = 2;

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
    await workspace(id, source.scope(id));
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

interface Opened {
  source: DataFileSource;
  /** The old file's size; 0 when there was none. */
  bytes: number;
  handle: FileHandle | undefined;
}

/**
 * The data file as a source: read span by span when its layout line names every scope's
 * collections, else parsed whole (a file svc wrote before, or edited by hand).
 */
async function openSource(dataPath: string, use: LayoutUse, pace: Pace): Promise<Opened> {
  let handle: FileHandle;
  try {
    handle = await open(dataPath, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return { source: new ParsedSource(0, {}, {}), bytes: 0, handle: undefined };
    }
    throw err;
  }
  try {
    const { size } = await handle.stat();
    const found = use === 'whole' ? undefined : readLayout(handle, size, dataPath);
    // A file edited by hand since svc wrote it (its checksum no longer matching) is parsed whole,
    // as a start parses it: its spans may no longer say where its values lie.
    const layout =
      found && (use === 'trusted' || (await checksumHolds(handle, found.crcAt, found.crc, pace)))
        ? found.layout
        : undefined;
    if (layout) {
      const head = Buffer.alloc(layout.global[0]);
      await handle.read(head, 0, head.length, 0);
      const { seq } = checkHead(dataPath, `${head.toString('utf8')}null}`);
      return { source: new SpanSource(seq, handle, layout), bytes: size, handle };
    }
    const data = checkHead(dataPath, (await handle.readFile()).toString('utf8'));
    await handle.close();
    const source = new ParsedSource(data.seq, data.global ?? {}, data.workspaces ?? {});
    return { source, bytes: size, handle: undefined };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/**
 * The layout line, when it is there and names every scope's collections, with where the checksum
 * line starts and the checksum it gives.
 */
function readLayout(
  handle: FileHandle,
  size: number,
  path: string,
): { layout: FullLayout; crcAt: number; crc: number } | undefined {
  const found = findTail(fileView(() => handle.fd, size, path));
  if (found === undefined || !Number.isInteger(found.crc)) {
    return undefined;
  }
  try {
    const layout = complete(JSON.parse(found.layoutText) as Layout);
    return layout && { layout, crcAt: found.crcAt, crc: found.crc };
  } catch {
    return undefined;
  }
}

/** Whether the CRC-32 of the file's first `end` bytes is `crc`; paced as the writing is. */
async function checksumHolds(
  handle: FileHandle,
  end: number,
  crc: number,
  pace: Pace,
): Promise<boolean> {
  let sum = 0;
  const chunk = Buffer.allocUnsafe(Math.min(CRC_READ_BYTES, end));
  for (let at = 0; at < end; ) {
    checkStopped(pace);
    const started = performance.now();
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, end - at), at);
    if (bytesRead === 0) {
      return false;
    }
    sum = crc32(chunk.subarray(0, bytesRead), sum);
    at += bytesRead;
    if (pace.paced) {
      await new Promise((resolve) =>
        setTimeout(resolve, (performance.now() - started) * REST_PER_WORK),
      );
    }
  }
  return sum === crc;
}

const CRC_READ_BYTES = 4 << 20;

function complete(layout: Layout): FullLayout | undefined {
  const { global, collections, workspaces } = layout;
  if (
    !Array.isArray(global) ||
    typeof collections !== 'object' ||
    collections === null ||
    typeof workspaces !== 'object' ||
    workspaces === null ||
    collections[GLOBAL] === undefined ||
    Object.keys(workspaces).some((id) => collections[id] === undefined)
  ) {
    return undefined;
  }
  return { ...layout, global, collections };
}

interface Head {
  seq: number;
  global?: ParsedSource['global'];
  workspaces?: ParsedSource['byWorkspace'];
}

function checkHead(path: string, text: string): Head {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new StoreFileError(`data file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  const file = data as { format?: unknown; version?: unknown; seq?: unknown } | null;
  if (file?.format !== FORMAT || file.version !== FORMAT_VERSION || typeof file.seq !== 'number') {
    throw new StoreFileError(`data file ${path} is not an svc data file of this version`);
  }
  return data as Head;
}
