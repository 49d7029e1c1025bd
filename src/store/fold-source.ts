import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { crc32 } from 'node:zlib';
import { type DataFileSource, ParsedSource, SpanSource } from './data-file-sources';
import { type FullLayout, fileView, findTail, type Layout } from './layout';
import { checkStopped, type Pace, REST_PER_WORK } from './pace';
import { FORMAT, FORMAT_VERSION, GLOBAL, StoreFileError } from './types';

// The data file as a fold reads it: opened, its layout found and (unless trusted) its checksum
// checked, then read span by span, or parsed whole when its layout cannot be taken at its word.

/** How a fold reads the data file's layout: as it is, once its checksum holds, or not at all. */
export type LayoutUse = 'trusted' | 'checked' | 'whole';

export interface Opened {
  source: DataFileSource;
  /** The old file's size; 0 when there was none. */
  bytes: number;
  handle: FileHandle | undefined;
}

/**
 * The data file as a source: read span by span when its layout line names every scope's
 * collections, else parsed whole (a file svc wrote before, or edited by hand).
 */
export async function openSource(dataPath: string, use: LayoutUse, pace: Pace): Promise<Opened> {
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
