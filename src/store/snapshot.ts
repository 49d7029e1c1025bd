import { readFileSync } from 'node:fs';
import { readWithLayout } from './layout';
import { type DataFile, FORMAT, FORMAT_VERSION, StoreFileError } from './types';

// The data file as read at start. It is written only by folding a journal into it (fold.ts), in
// a worker thread, from the files on disk: never from the records in memory.
export class DurableJsonFile {
  readonly path: string;
  /** Size of the snapshot last read or written: it sets the journal's compaction threshold. */
  bytes = 0;
  /**
   * The file is as svc wrote it: its checksum held when read, or a fold has written it since. A
   * fold then takes its layout as it is (fold.ts); one edited by hand is read through first.
   */
  trusted = false;

  constructor(path: string) {
    this.path = path;
  }

  async read(): Promise<DataFile | null> {
    let buffer: Buffer;
    try {
      // Read once, at start-up, when nothing else runs: a synchronous read is one pass, where the
      // async one is some fifty thread-pool round trips of 512 KB, each waiting for a wake-up.
      buffer = readFileSync(this.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return null;
      }
      throw new StoreFileError(`cannot read data file ${this.path}: ${(err as Error).message}`);
    }
    this.bytes = buffer.length;
    // A file svc wrote, checksum intact: its workspaces are parsed when first used.
    const lazy = readWithLayout(buffer);
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
    } = checkFormat(this.path, data) as DataFile & {
      layout?: unknown;
      crc32?: unknown;
    };
    return file;
  }
}

function checkFormat(path: string, data: unknown): DataFile {
  const file = data as Partial<DataFile> | null;
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
  return file as DataFile;
}
