import { crc32 } from 'node:zlib';
import { type DataFile, UnparsedScope } from './types';

// The data file is lowdb's JSON snapshot, a record a line, ending in two lines of its own
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

/**
 * The file's data with each workspace left unparsed, when its checksum line is there and right;
 * undefined otherwise (the caller parses the file whole). `sofar`: the checksum of the bytes up to
 * some point, computed while the file was read; the rest is summed here.
 */
export function readWithLayout(
  buffer: Buffer,
  sofar: CrcSoFar = { upTo: 0, crc: 0 },
): { head: unknown; workspaces: DataFile['workspaces'] } | undefined {
  const crcAt = buffer.lastIndexOf(CRC_LINE);
  const layoutAt = crcAt < 0 ? -1 : buffer.lastIndexOf(LAYOUT_LINE, crcAt);
  if (layoutAt < 0) {
    return undefined;
  }
  const crc = Number(buffer.toString('latin1', crcAt + CRC_LINE.length).replace(/}\s*$/, ''));
  const sum = sofar.upTo <= crcAt ? crc32(buffer.subarray(sofar.upTo, crcAt), sofar.crc) : -1;
  if (!Number.isInteger(crc) || sum !== crc) {
    return undefined;
  }
  let layout: Layout;
  let head: unknown;
  try {
    layout = JSON.parse(buffer.toString('utf8', layoutAt + LAYOUT_LINE.length, crcAt)) as Layout;
    if (!fits(buffer, layout, layoutAt)) {
      return undefined;
    }
    head = JSON.parse(`${buffer.toString('utf8', 0, layout.workspaces_at)}{}}`);
  } catch {
    return undefined;
  }
  const workspaces: DataFile['workspaces'] = {};
  for (const [wsId, [start, end]] of Object.entries(layout.workspaces)) {
    workspaces[wsId] = new UnparsedScope(
      buffer.subarray(start, end),
      collectionsWithin(buffer, layout.collections?.[wsId], start, end),
    );
  }
  return { head, workspaces };
}

/**
 * A workspace's collection spans from its own start; undefined unless they tile it: `{`, then
 * each collection as `"<name>":<span>` separated by commas, then `}`, so none is left out.
 */
function collectionsWithin(
  buffer: Buffer,
  spans: Record<string, Span> | undefined,
  start: number,
  end: number,
): Record<string, Span> | undefined {
  if (typeof spans !== 'object' || spans === null) {
    return undefined;
  }
  const within: Record<string, Span> = {};
  let at = start + 1;
  for (const [name, span] of Object.entries(spans)) {
    const key = `${at === start + 1 ? '' : ','}${JSON.stringify(name)}:`;
    if (
      !Array.isArray(span) ||
      !Number.isInteger(span[0]) ||
      !Number.isInteger(span[1]) ||
      span[0] !== at + Buffer.byteLength(key) ||
      span[1] <= span[0] ||
      buffer.toString('utf8', at, span[0]) !== key
    ) {
      return undefined;
    }
    within[name] = [span[0] - start, span[1] - start];
    at = span[1];
  }
  return at === end - 1 ? within : undefined;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

/** Whether a layout read back describes this file: spans in order, apart, each an object. */
function fits(buffer: Buffer, layout: Layout, end: number): boolean {
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
      buffer[span[0]] !== OPEN ||
      buffer[span[1] - 1] !== CLOSE
    ) {
      return false;
    }
    after = span[1];
  }
  return true;
}
