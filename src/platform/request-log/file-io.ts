import { type FileHandle, open } from 'node:fs/promises';

// The request log's byte-level file work: lines copied into a chunk, and lines blanked in place.

/** Where a line is: the file generation it went to, its byte offset and length there. */
export interface Place {
  segment: number;
  offset: number;
  length: number;
}

export const missingIsFine = (err: NodeJS.ErrnoException): void => {
  if (err.code !== 'ENOENT') {
    throw err;
  }
};

/**
 * Writes `text` at `at`, its length in bytes returned. ASCII text (most of a line, and JSON as
 * svc writes it) is copied byte for byte: encoding it as UTF-8 took five times as long, and its
 * bytes are the same.
 */
export function put(chunk: Buffer, text: string | Buffer, at: number): number {
  if (typeof text !== 'string') {
    chunk.set(text, at);
    return text.length;
  }
  return chunk.write(text, at, Buffer.byteLength(text) === text.length ? 'latin1' : 'utf8');
}

export async function blankLines(path: string, places: readonly Place[]): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r+');
  } catch (err) {
    missingIsFine(err as NodeJS.ErrnoException); // rotated or purged away: nothing left to blank
    return;
  }
  try {
    for (const place of places) {
      await handle.write(Buffer.alloc(place.length, 0x20), 0, place.length, place.offset);
    }
  } finally {
    await handle.close();
  }
}
