import { readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { type DataFileContents, StoreFileError, UnparsedScope } from './types';

// The data file is one JSON document, a record a line, ending in two lines of its own
// (decisions.md, Store): `,"layout":{...}`, where each scope's and each collection's bytes lie,
// and `,"crc32":N}`, a checksum of every byte before it, the layout line included. A start that
// finds the checksum right trusts the file whole and parses a workspace only when it is first
// used. A file without them, or edited by hand (the checksum fails), is parsed whole.

/** Byte offsets [start, end) of a JSON value in the data file. */
export type Span = [number, number];

export interface Layout {
  /** Where the value of "workspaces" begins. */
  workspaces_at: number;
  workspaces: Record<string, Span>;
  /** Where the value of "global" lies (files svc wrote before issue 21 lack it). */
  global?: Span;
  /** Scope ("g" for the global one) -> collection -> where its value lies (ditto). */
  collections?: Record<string, Record<string, Span>>;
}

/** A layout a compaction can copy from span by span. */
export type FullLayout = Required<Layout>;

export const LAYOUT_LINE = '\n,"layout":';
export const CRC_LINE = '\n,"crc32":';

/** The CRC-32 of a file's first `upTo` bytes, known as it was read. */
export interface CrcSoFar {
  upTo: number;
  crc: number;
}

/** A data file's bytes by range: the whole file read into memory, or the file itself. */
export interface FileView {
  readonly size: number;
  /** Bytes [start, end): a view when the file is in memory, read from it otherwise. */
  read(start: number, end: number): Buffer;
}

export const bufferView = (buffer: Buffer): FileView => ({
  size: buffer.length,
  read: (start, end) => buffer.subarray(start, end),
});

/**
 * The file itself as a view: each range read when asked for. `fd` answers the descriptor while
 * the file is open, -1 once it is let go (a number the system may since have given another file).
 */
export function fileView(fd: () => number, size: number, path: string): FileView {
  return {
    size,
    read(start, end) {
      const open = fd();
      if (open < 0) {
        throw new StoreFileError(`data file ${path} was let go before it was read`);
      }
      const bytes = Buffer.allocUnsafe(end - start);
      for (let got = 0; got < bytes.length; ) {
        const n = readSync(open, bytes, got, bytes.length - got, start + got);
        if (n === 0) {
          throw new StoreFileError(
            `data file ${path} ended at byte ${start + got} while it was read`,
          );
        }
        got += n;
      }
      return bytes;
    },
  };
}

/** How much of the file's end is read first for the layout and checksum lines. */
export const TAIL_BYTES = 64 * 1024;

/**
 * The file's data with each workspace left unparsed, when its checksum line is there and right;
 * undefined otherwise (the caller parses the file whole). `sofar`: the checksum of the bytes up to
 * some point, computed while the file was read, the rest summed here; `trusted`: the file is
 * known to be as svc wrote it, the checksum is not summed at all (its bytes need not be read).
 */
export function readWithLayout(
  file: FileView,
  sofar: CrcSoFar | 'trusted',
): { head: unknown; workspaces: DataFileContents['workspaces'] } | undefined {
  const found = findTail(file);
  if (found === undefined) {
    return undefined;
  }
  const { crcAt, layoutText, crc } = found;
  if (!Number.isInteger(crc)) {
    return undefined;
  }
  if (sofar !== 'trusted') {
    const sum = sofar.upTo <= crcAt ? crc32(file.read(sofar.upTo, crcAt), sofar.crc) : -1;
    if (sum !== crc) {
      return undefined;
    }
  }
  let layout: Layout;
  let head: unknown;
  try {
    layout = JSON.parse(layoutText) as Layout;
    if (!fits(file, layout, found.layoutAt)) {
      return undefined;
    }
    head = JSON.parse(`${file.read(0, layout.workspaces_at).toString('utf8')}{}}`);
  } catch {
    return undefined;
  }
  const workspaces: DataFileContents['workspaces'] = {};
  for (const [wsId, [start, end]] of Object.entries(layout.workspaces)) {
    const spans = layout.collections?.[wsId];
    workspaces[wsId] = new UnparsedScope(() => {
      const bytes = file.read(start, end);
      return { bytes, collections: collectionsWithin(bytes, spans, start) };
    });
  }
  return { head, workspaces };
}

/**
 * The layout and checksum lines at the file's end, read a little, then more until found: where
 * each starts, the layout's text, and the checksum the last line gives (NaN when none).
 */
export function findTail(
  file: FileView,
): { layoutAt: number; crcAt: number; layoutText: string; crc: number } | undefined {
  for (let want = Math.min(TAIL_BYTES, file.size); ; want = Math.min(want * 4, file.size)) {
    const from = file.size - want;
    const tail = file.read(from, file.size);
    const crcAt = tail.lastIndexOf(CRC_LINE);
    const layoutAt = crcAt < 0 ? -1 : tail.lastIndexOf(LAYOUT_LINE, crcAt);
    if (layoutAt >= 0) {
      return {
        layoutAt: from + layoutAt,
        crcAt: from + crcAt,
        layoutText: tail.toString('utf8', layoutAt + LAYOUT_LINE.length, crcAt),
        crc: Number(tail.toString('latin1', crcAt + CRC_LINE.length).replace(/}\s*$/, '')),
      };
    }
    if (want === file.size) {
      return undefined;
    }
  }
}

/**
 * A workspace's collection spans from its own start; undefined unless they tile it: `{`, then
 * each collection as `"<name>":<span>` separated by commas, then `}`, so none is left out.
 * `bytes` are the workspace's, which starts at `start` in the file.
 */
function collectionsWithin(
  bytes: Buffer,
  spans: Record<string, Span> | undefined,
  start: number,
): Record<string, Span> | undefined {
  if (typeof spans !== 'object' || spans === null) {
    return undefined;
  }
  const within: Record<string, Span> = {};
  let at = 1;
  for (const [name, span] of Object.entries(spans)) {
    const key = `${at === 1 ? '' : ','}${JSON.stringify(name)}:`;
    if (
      !Array.isArray(span) ||
      !Number.isInteger(span[0]) ||
      !Number.isInteger(span[1]) ||
      span[0] - start !== at + Buffer.byteLength(key) ||
      span[1] <= span[0] ||
      bytes.toString('utf8', at, span[0] - start) !== key
    ) {
      return undefined;
    }
    within[name] = [span[0] - start, span[1] - start];
    at = span[1] - start;
  }
  return at === bytes.length - 1 ? within : undefined;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

/** Whether a layout read back describes this file: spans in order, apart, each an object. */
function fits(file: FileView, layout: Layout, end: number): boolean {
  if (
    typeof layout !== 'object' ||
    layout === null ||
    !Number.isInteger(layout.workspaces_at) ||
    layout.workspaces_at <= 0 ||
    layout.workspaces_at >= end ||
    typeof layout.workspaces !== 'object' ||
    layout.workspaces === null
  ) {
    return false;
  }
  let after = layout.workspaces_at;
  for (const span of Object.values(layout.workspaces)) {
    if (
      !Array.isArray(span) ||
      !Number.isInteger(span[0]) ||
      !Number.isInteger(span[1]) ||
      span[0] <= after ||
      span[1] <= span[0] ||
      span[1] > end ||
      file.read(span[0], span[0] + 1)[0] !== OPEN ||
      file.read(span[1] - 1, span[1])[0] !== CLOSE
    ) {
      return false;
    }
    after = span[1];
  }
  return true;
}
