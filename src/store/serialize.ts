import { crc32 } from 'node:zlib';
import { type DataFile, type ScopeData, UnparsedScope } from './types';

// The data file is lowdb's JSON snapshot, a record a line, ending in two more lines (decisions.md,
// Store): `,"layout":{workspaces_at, workspaces: {id: [start, end]}}`, where each workspace's bytes
// lie, and `,"crc32":N}`, a checksum of every byte before it, the layout line included. A start
// that finds the checksum right trusts the file whole and parses a workspace only when it is
// first used. A file without them, or edited by hand (the checksum fails), is parsed whole.

export interface Layout {
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
  const layout: Layout = { workspaces_at: at(), workspaces: {} };
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
  await emit(`${LAYOUT_LINE}${JSON.stringify(layout)}`);
  await flush();
  const tail = Buffer.from(`${CRC_LINE}${crc}}\n`);
  await write(tail);
  return written + tail.length;
}

const LAYOUT_LINE = '\n,"layout":';
const CRC_LINE = '\n,"crc32":';

/**
 * The file's data with each workspace left unparsed, when its checksum line is there and right;
 * undefined otherwise (the caller parses the file whole).
 */
export function readWithLayout(
  buffer: Buffer,
): { head: unknown; workspaces: DataFile['workspaces'] } | undefined {
  const crcAt = buffer.lastIndexOf(CRC_LINE);
  const layoutAt = crcAt < 0 ? -1 : buffer.lastIndexOf(LAYOUT_LINE, crcAt);
  if (layoutAt < 0) {
    return undefined;
  }
  const crc = Number(buffer.toString('latin1', crcAt + CRC_LINE.length).replace(/}\s*$/, ''));
  if (!Number.isInteger(crc) || crc32(buffer.subarray(0, crcAt)) !== crc) {
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
    workspaces[wsId] = new UnparsedScope(buffer.subarray(start, end));
  }
  return { head, workspaces };
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
