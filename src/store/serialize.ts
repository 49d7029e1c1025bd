import { crc32 } from 'node:zlib';
import { type DataFile, type ScopeData, UnparsedScope } from './types';

// The data file is lowdb's JSON snapshot, a record a line, ending in one more line: the layout,
// `,"layout":{crc32, bytes, workspaces_at, workspaces: {id: [start, end]}}` (decisions.md,
// Store). It says where each workspace's bytes lie and checksums everything before it, so a
// start can trust the file whole and parse a workspace only when it is first used. A file
// without it, or one edited by hand (its checksum no longer matches), is parsed whole.

export interface Layout {
  crc32: number;
  /** Bytes before the layout line: what the checksum covers. */
  bytes: number;
  /** Where the value of "workspaces" begins. */
  workspaces_at: number;
  workspaces: Record<string, [number, number]>;
}

const CHUNK_CHARS = 1 << 20;

/**
 * Writes `data` as the data file, handing ~1 MB chunks to `write` as it goes: never one string of
 * the whole store, and the event loop turns between chunks. Answers the bytes written.
 */
export async function serialize(
  data: DataFile,
  write: (chunk: Uint8Array) => Promise<void>,
): Promise<number> {
  let parts: string[] = [];
  let pendingChars = 0;
  let pendingBytes = 0;
  let written = 0;
  let crc = 0;
  const out = async (chunk: Uint8Array) => {
    crc = crc32(chunk, crc);
    written += chunk.length;
    await write(chunk);
  };
  const flush = async () => {
    if (parts.length > 0) {
      const chunk = Buffer.from(parts.join(''));
      parts = [];
      pendingChars = 0;
      pendingBytes = 0;
      await out(chunk);
    }
  };
  const emit = async (part: string) => {
    parts.push(part);
    pendingChars += part.length;
    pendingBytes += Buffer.byteLength(part);
    if (pendingChars >= CHUNK_CHARS) {
      await flush();
    }
  };
  /** The offset of the next byte to be emitted. */
  const at = () => written + pendingBytes;
  const collections = async (colls: ScopeData) => {
    await emit('{');
    let firstColl = true;
    for (const [name, records] of Object.entries(colls)) {
      await emit(`${firstColl ? '' : ','}${JSON.stringify(name)}:{`);
      firstColl = false;
      let first = true;
      for (const [id, rec] of Object.entries(records)) {
        await emit(`${first ? '' : ','}\n${JSON.stringify(id)}:${JSON.stringify(rec)}`);
        first = false;
      }
      await emit('}');
    }
    await emit('}');
  };

  await emit(
    `{"format":${JSON.stringify(data.format)},"version":${data.version},"seq":${data.seq},"global":`,
  );
  await collections(data.global);
  await emit(',"workspaces":');
  const layout: Layout = { crc32: 0, bytes: 0, workspaces_at: at(), workspaces: {} };
  await emit('{');
  let firstWs = true;
  for (const [wsId, colls] of Object.entries(data.workspaces)) {
    await emit(`${firstWs ? '' : ','}\n${JSON.stringify(wsId)}:`);
    firstWs = false;
    const start = at();
    if (colls instanceof UnparsedScope) {
      await flush();
      await out(colls.bytes);
    } else {
      await collections(colls);
    }
    layout.workspaces[wsId] = [start, at()];
  }
  await emit('}');
  await flush();
  layout.crc32 = crc;
  layout.bytes = written;
  const tail = Buffer.from(`\n,"layout":${JSON.stringify(layout)}}\n`);
  await write(tail);
  return written + tail.length;
}

const LAYOUT_LINE = Buffer.from('\n,"layout":');

/**
 * The file's data with each workspace left unparsed, when its layout line is there and its
 * checksum matches; undefined otherwise (the caller parses the file whole).
 */
export function readWithLayout(
  buffer: Buffer,
): { head: unknown; workspaces: DataFile['workspaces'] } | undefined {
  const at = buffer.lastIndexOf(LAYOUT_LINE);
  if (at < 0) {
    return undefined;
  }
  let layout: Layout;
  try {
    const line = buffer.toString('utf8', at + LAYOUT_LINE.length);
    layout = (JSON.parse(`{"layout":${line}`) as { layout: Layout }).layout;
  } catch {
    return undefined;
  }
  if (!fits(layout, at) || crc32(buffer.subarray(0, at)) !== layout.crc32) {
    return undefined;
  }
  let head: unknown;
  try {
    head = JSON.parse(`${buffer.toString('utf8', 0, layout.workspaces_at)}{}}`);
  } catch {
    return undefined;
  }
  const workspaces: DataFile['workspaces'] = {};
  for (const [wsId, [start, end]] of Object.entries(layout.workspaces)) {
    workspaces[wsId] = new UnparsedScope(buffer.subarray(start, end));
  }
  return { head, workspaces };
}

/** Whether a layout read back describes a file of this size sensibly. */
function fits(layout: Layout, bytes: number): boolean {
  if (
    typeof layout !== 'object' ||
    layout === null ||
    layout.bytes !== bytes ||
    typeof layout.crc32 !== 'number' ||
    !Number.isInteger(layout.workspaces_at) ||
    layout.workspaces_at <= 0 ||
    layout.workspaces_at >= bytes ||
    typeof layout.workspaces !== 'object' ||
    layout.workspaces === null
  ) {
    return false;
  }
  return Object.values(layout.workspaces).every(
    (span) =>
      Array.isArray(span) &&
      Number.isInteger(span[0]) &&
      Number.isInteger(span[1]) &&
      span[0] > layout.workspaces_at &&
      span[0] < span[1] &&
      span[1] <= bytes,
  );
}
