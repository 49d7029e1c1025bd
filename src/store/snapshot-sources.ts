import type { FileHandle } from 'node:fs/promises';
import type { ChunkWriter } from './chunks';
import type { FullLayout, Span } from './layout';
import { linesOf } from './lines';
import { recordIdAt } from './record-lines';
import { GLOBAL, type Scope, type ScopeData } from './types';

// What a compaction copies from: the data file on disk read span by span (its layout line says
// where each scope and collection lies, and each record is one line), or a data set already
// parsed (a file with no such layout, or a snapshot made from memory).

/** One record as it is written: `"<id>":<json>`, the line of the data file without separators. */
export type RecordLine = [id: string, line: Uint8Array | string];

export interface CollectionSource {
  readonly name: string;
  records(): AsyncIterable<RecordLine>;
  /** Writes the collection's value (`{...}`) as it is; undefined when it cannot be copied whole. */
  copy?(w: ChunkWriter): Promise<Span>;
}

export interface ScopeSource {
  collections(): Iterable<CollectionSource>;
  /** Writes the scope's value as it is, answering where each collection now lies. */
  copy?(w: ChunkWriter): Promise<Record<string, Span>>;
}

export interface SnapshotSource {
  readonly seq: number;
  /** Workspace ids, in the order the file holds them. */
  workspaces(): Iterable<string>;
  scope(scope: Scope): ScopeSource | undefined;
}

/** The file is not in the shape its layout promises: the compaction starts over, parsing it. */
export class ShapeError extends Error {}

const READ_BYTES = 4 << 20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;

export class ParsedSource implements SnapshotSource {
  constructor(
    readonly seq: number,
    readonly global: ScopeData,
    readonly byWorkspace: Record<string, ScopeData>,
  ) {}

  workspaces(): Iterable<string> {
    return Object.keys(this.byWorkspace);
  }

  scope(scope: Scope): ScopeSource | undefined {
    const data = scope === GLOBAL ? this.global : this.byWorkspace[scope];
    if (data === undefined) {
      return undefined;
    }
    return {
      *collections() {
        for (const [name, records] of Object.entries(data)) {
          yield {
            name,
            async *records() {
              for (const [id, rec] of Object.entries(records)) {
                yield [id, `${JSON.stringify(id)}:${JSON.stringify(rec)}`];
              }
            },
          };
        }
      },
    };
  }
}

/** The data file on disk, read through its layout: only the spans asked for are read. */
export class SpanSource implements SnapshotSource {
  constructor(
    readonly seq: number,
    readonly handle: FileHandle,
    readonly layout: FullLayout,
  ) {}

  workspaces(): Iterable<string> {
    return Object.keys(this.layout.workspaces);
  }

  scope(scope: Scope): ScopeSource | undefined {
    const span = scope === GLOBAL ? this.layout.global : this.layout.workspaces[scope];
    if (span === undefined) {
      return undefined;
    }
    const colls = this.layout.collections[scope];
    if (colls === undefined) {
      throw new ShapeError(`no collections for ${scope} in the layout`);
    }
    const handle = this.handle;
    return {
      *collections() {
        for (const [name, collSpan] of Object.entries(colls)) {
          yield {
            name,
            records: () => recordLines(handle, collSpan),
            copy: async (w) => shift(collSpan, await copySpan(handle, collSpan, w)),
          };
        }
      },
      copy: async (w) => {
        const delta = (await copySpan(handle, span, w)) - span[0];
        return Object.fromEntries(
          Object.entries(colls).map(([name, [start, end]]) => [name, [start + delta, end + delta]]),
        );
      },
    };
  }
}

const shift = (span: Span, start: number): Span => [start, start + span[1] - span[0]];

/** Copies a span's bytes as they are; answers where they now start. */
async function copySpan(handle: FileHandle, [start, end]: Span, w: ChunkWriter): Promise<number> {
  const at = w.at;
  let first = true;
  for await (const chunk of readSpan(handle, start, end)) {
    if (first && chunk[0] !== OPEN) {
      throw new ShapeError(`no object at byte ${start}`);
    }
    first = false;
    await w.bytes(chunk);
  }
  return at;
}

/** A span's bytes in chunks, the next read already under way while one is used. */
async function* readSpan(handle: FileHandle, start: number, end: number): AsyncGenerator<Buffer> {
  const readAt = async (at: number) => {
    const want = Math.min(READ_BYTES, end - at);
    const chunk = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(chunk, 0, want, at);
    if (bytesRead !== want) {
      throw new ShapeError(`the file ends before byte ${end}`);
    }
    return chunk;
  };
  let next = start < end ? readAt(start) : undefined;
  for (let at = start; next !== undefined; ) {
    const chunk = await next;
    at += chunk.length;
    next = at < end ? readAt(at) : undefined;
    next?.catch(() => undefined); // met when awaited; a consumer that stops early leaves it
    yield chunk;
  }
}

/**
 * A collection's records, a line each: the span is `{`, then `\n"<id>":<json>` separated by
 * commas, then `}` (fold.ts writes it so; JSON text never holds a raw newline).
 */
async function* recordLines(handle: FileHandle, [start, end]: Span): AsyncGenerator<RecordLine> {
  if (end - start < 2) {
    throw new ShapeError(`a collection at byte ${start} is too short`);
  }
  const edges = Buffer.alloc(1);
  await handle.read(edges, 0, 1, end - 1);
  if (edges[0] !== CLOSE) {
    throw new ShapeError(`no collection ends at byte ${end}`);
  }
  let first = true;
  for await (const { line, ended } of linesOf(readSpan(handle, start, end - 1))) {
    if (first) {
      // What comes before the first newline: the `{` alone.
      if (line[0] !== OPEN) {
        throw new ShapeError(`no collection starts at byte ${start}`);
      }
      if (line.length > 1) {
        throw new ShapeError(`text before the first record at byte ${start}`);
      }
      first = false;
    } else if (!ended) {
      yield lineOf(line); // the last record, before the `}`
    } else {
      if (line[line.length - 1] !== COMMA) {
        throw new ShapeError(`a record at byte ${start} is not followed by a comma`);
      }
      yield lineOf(line.subarray(0, line.length - 1));
    }
  }
}

/** The id a record line starts with: `"<id>":`. */
function lineOf(piece: Buffer): RecordLine {
  if (piece[0] !== QUOTE) {
    throw new ShapeError('a record line does not start with its id');
  }
  const found = recordIdAt(piece, 0);
  if (found === undefined) {
    throw new ShapeError('a record line has no id');
  }
  return [found[0], piece];
}
