import type { FileHandle } from 'node:fs/promises';
import type { ChunkWriter } from './chunks';
import type { FullLayout, Span } from './layout';
import { wholeLines } from './lines';
import { GLOBAL, type Scope, type ScopeData } from './types';

// What a compaction copies from: the data file on disk read span by span (its layout line says
// where each scope and collection lies, and each record is one line), or a data set already
// parsed (a file with no such layout, or a data file made from memory).

export interface CollectionSource {
  readonly name: string;
  /**
   * The records as the data file holds them, `"<id>":<json>` a line, each but the last followed
   * by a comma: in pieces that each end where a line does (after its newline), so that a piece
   * is read a line at a time with no line cut in two.
   */
  recordLines(): AsyncIterable<Buffer>;
  /** Writes the collection's value (`{...}`) as it is; undefined when it cannot be copied whole. */
  copy?(w: ChunkWriter): Promise<Span>;
}

export interface ScopeSource {
  collections(): Iterable<CollectionSource>;
  /** Writes the scope's value as it is, answering where each collection now lies. */
  copy?(w: ChunkWriter): Promise<Record<string, Span>>;
}

export interface DataFileSource {
  readonly seq: number;
  /** Workspace ids, in the order the file holds them. */
  workspaces(): Iterable<string>;
  scope(scope: Scope): ScopeSource | undefined;
}

/** The file is not in the shape its layout promises: the compaction starts over, parsing it. */
export class ShapeError extends Error {}

const READ_BYTES = 4 << 20;
const NEWLINE = 0x0a;
const OPEN = 0x7b;
const CLOSE = 0x7d;

export class ParsedSource implements DataFileSource {
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
            async *recordLines() {
              const entries = Object.entries(records);
              for (const [i, [id, rec]] of entries.entries()) {
                const after = i < entries.length - 1 ? ',\n' : '';
                yield Buffer.from(`${JSON.stringify(id)}:${JSON.stringify(rec)}${after}`);
              }
            },
          };
        }
      },
    };
  }
}

/** The data file on disk, read through its layout: only the spans asked for are read. */
export class SpanSource implements DataFileSource {
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
            recordLines: () => recordLines(handle, collSpan),
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
 * A collection's record lines (see CollectionSource): its span is `{`, then `\n"<id>":<json>`
 * separated by commas, then `}` (fold.ts writes it so; JSON text never holds a raw newline). The
 * file is read in chunks of 4 MB.
 */
async function* recordLines(handle: FileHandle, [start, end]: Span): AsyncGenerator<Buffer> {
  const edges = Buffer.alloc(2);
  if (end - start < 2 || (await handle.read(edges, 0, 2, start)).bytesRead < 2) {
    throw new ShapeError(`a collection at byte ${start} is too short`);
  }
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, end - 1);
  if (edges[0] !== OPEN || last[0] !== CLOSE) {
    throw new ShapeError(`no collection lies at bytes ${start} to ${end}`);
  }
  if (end - start === 2) {
    return; // `{}`
  }
  if (edges[1] !== NEWLINE) {
    throw new ShapeError(`text before the first record at byte ${start}`);
  }
  for await (const piece of wholeLines(readSpan(handle, start + 2, end - 1))) {
    if (piece.length > 0) {
      yield piece; // the last, the last record, has no comma after it
    }
  }
}
