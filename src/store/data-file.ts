import { type BigIntStats, closeSync, fstatSync, openSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { bufferView, type CrcSoFar, fileView, readWithLayout, TAIL_BYTES } from './layout';
import { type DataFileContents, FORMAT, FORMAT_VERSION, StoreFileError } from './types';

// The data file as read at start. It is written only by folding a journal into it (fold.ts), in
// a worker thread, from the files on disk: never from the records in memory.
export class DataFile {
  readonly path: string;
  /** Size of the data file last read or written: it sets the journal's compaction threshold. */
  bytes = 0;
  /**
   * The file is as svc wrote it: its checksum held when read, or a fold has written it since. A
   * fold then takes its layout as it is (fold.ts); one edited by hand is read through first.
   */
  trusted = false;
  /** The file a trusted start read only in part: its workspaces are read from it when parsed. */
  #fd: number | undefined;

  constructor(path: string) {
    this.path = path;
  }

  /**
   * The data file's contents. `remembered`: what the file was when svc last wrote or checked it
   * (the lock a crashed svc left says so); when it still is, only its head and layout are read
   * now, and each workspace's bytes when it is parsed.
   */
  async read(remembered?: FileIdentity): Promise<DataFileContents | null> {
    if (remembered !== undefined) {
      const known = this.#readKnown(remembered);
      if (known !== undefined) {
        return known;
      }
    }
    let buffer: Buffer;
    let sofar: CrcSoFar;
    try {
      ({ buffer, sofar } = await readSumming(this.path));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return null;
      }
      throw new StoreFileError(`cannot read data file ${this.path}: ${(err as Error).message}`);
    }
    this.bytes = buffer.length;
    // A file svc wrote, checksum intact: its workspaces are parsed when first used.
    const lazy = readWithLayout(bufferView(buffer), sofar);
    this.trusted = lazy !== undefined;
    if (lazy) {
      const head = checkFormat(this.path, lazy.head);
      return { ...head, workspaces: lazy.workspaces };
    }
    let data: unknown;
    try {
      data = JSON.parse(buffer.toString('utf8'));
    } catch (err) {
      throw new StoreFileError(
        `data file ${this.path} is not valid JSON (${(err as Error).message}); ` +
          'svc will not overwrite it: fix it, move it aside, or pass another --data',
      );
    }
    // The layout and checksum lines describe the file, not the data.
    const {
      layout: _layout,
      crc32: _crc32,
      ...file
    } = checkFormat(this.path, data) as DataFileContents & {
      layout?: unknown;
      crc32?: unknown;
    };
    return file;
  }

  /** What the file is now, to be remembered (undefined when it cannot be looked at). */
  identity(): FileIdentity | undefined {
    try {
      return identityOf(statSync(this.path, { bigint: true }));
    } catch {
      return undefined;
    }
  }

  /** Lets go of the file a trusted start read its workspaces from. */
  close(): void {
    if (this.#fd !== undefined) {
      closeSync(this.#fd);
      this.#fd = undefined;
    }
  }

  /** The file read through its layout alone, when it is still what was remembered. */
  #readKnown(remembered: FileIdentity): DataFileContents | undefined {
    try {
      this.#fd = openSync(this.path, 'r');
    } catch {
      return undefined; // missing or unreadable: the read that follows says which
    }
    try {
      const now = identityOf(fstatSync(this.#fd, { bigint: true }));
      const file = fileView(() => this.#fd ?? -1, Number(now.size), this.path);
      const lazy = sameFile(now, remembered) ? readWithLayout(file, 'trusted') : undefined;
      if (lazy !== undefined) {
        const head = checkFormat(this.path, lazy.head);
        this.bytes = file.size;
        this.trusted = true;
        return { ...head, workspaces: lazy.workspaces };
      }
    } catch (err) {
      this.close();
      throw err;
    }
    this.close();
    return undefined;
  }
}

const PIECE_BYTES = 8 << 20;
const READS_IN_FLIGHT = 4;

/**
 * The whole file, read in pieces of 8 MB with four reads in flight, and the CRC-32 of its bytes
 * summed in order as the pieces come in, up to where the checksum line may start. Why: the
 * thread pool copies pieces on both cores while this one sums, where one synchronous read and
 * then the sum did each in turn (a 100k store's 395 MB: 650-760 ms read and summed that way,
 * 400-500 ms so).
 */
async function readSumming(path: string): Promise<{ buffer: Buffer; sofar: CrcSoFar }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.allocUnsafe(size);
    const sumUpTo = Math.max(0, size - TAIL_BYTES); // the checksum line may start past it
    const sofar: CrcSoFar = { upTo: 0, crc: 0 };
    const arrived = new Map<number, number>(); // piece start -> its length, not yet summed
    let next = 0;
    const reader = async () => {
      while (next < size) {
        const at = next;
        const want = Math.min(PIECE_BYTES, size - at);
        next += want;
        for (let got = 0; got < want; ) {
          const { bytesRead } = await handle.read(buffer, at + got, want - got, at + got);
          if (bytesRead === 0) {
            throw new Error(`${path} ended at byte ${at + got} while it was read`);
          }
          got += bytesRead;
        }
        arrived.set(at, want);
        for (let n = arrived.get(sofar.upTo); n !== undefined; n = arrived.get(sofar.upTo)) {
          if (sofar.upTo + n > sumUpTo) {
            break;
          }
          arrived.delete(sofar.upTo);
          sofar.crc = crc32(buffer.subarray(sofar.upTo, sofar.upTo + n), sofar.crc);
          sofar.upTo += n;
        }
      }
    };
    await Promise.all(Array.from({ length: READS_IN_FLIGHT }, reader));
    return { buffer, sofar };
  } finally {
    await handle.close();
  }
}

/**
 * What tells the data file svc last wrote from any other: where it lies, its size, and when it and
 * its inode last changed (a hand edit changes the times; no one can set ctime back), as decimal
 * strings of nanoseconds.
 */
export interface FileIdentity {
  dev: string;
  ino: string;
  size: string;
  mtimeNs: string;
  ctimeNs: string;
}

function identityOf(st: BigIntStats): FileIdentity {
  return {
    dev: String(st.dev),
    ino: String(st.ino),
    size: String(st.size),
    mtimeNs: String(st.mtimeNs),
    ctimeNs: String(st.ctimeNs),
  };
}

const sameFile = (a: FileIdentity, b: FileIdentity) =>
  a.dev === b.dev &&
  a.ino === b.ino &&
  a.size === b.size &&
  a.mtimeNs === b.mtimeNs &&
  a.ctimeNs === b.ctimeNs;

/** Reads the remembered form back; undefined for anything else. */
export function parseIdentity(text: string | undefined): FileIdentity | undefined {
  try {
    const value = JSON.parse(text ?? '') as Record<string, unknown>;
    const keys = ['dev', 'ino', 'size', 'mtimeNs', 'ctimeNs'] as const;
    return keys.every((key) => typeof value?.[key] === 'string')
      ? (value as unknown as FileIdentity)
      : undefined;
  } catch {
    return undefined;
  }
}

function checkFormat(path: string, data: unknown): DataFileContents {
  const file = data as Partial<DataFileContents> | null;
  if (typeof file !== 'object' || file === null || file.format !== FORMAT) {
    throw new StoreFileError(
      `data file ${path} is not an svc data file (no "format": "${FORMAT}")`,
    );
  }
  if (file.version !== FORMAT_VERSION) {
    throw new StoreFileError(
      `data file ${path} has format version ${String(file.version)}; this svc reads version ${FORMAT_VERSION}`,
    );
  }
  if (
    typeof file.seq !== 'number' ||
    typeof file.global !== 'object' ||
    typeof file.workspaces !== 'object'
  ) {
    throw new StoreFileError(`data file ${path} is damaged: seq, global or workspaces is missing`);
  }
  return file as DataFileContents;
}
