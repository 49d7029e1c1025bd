import { readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { syncDirectory } from './fsync';
import { type DataFile, FORMAT, FORMAT_VERSION, StoreFileError } from './types';

// lowdb adapter for the data file. lowdb's own JSONFile renames a temp file without fsync; the
// journal set aside is deleted right after a snapshot, so the snapshot must be on disk first.
// Writing streams ~1 MB chunks, so compacting a large store neither stalls requests nor holds
// the whole file in one string (records are immutable: the view being written cannot change).
export class DurableJsonFile implements Adapter<DataFile> {
  readonly path: string;
  /** Size of the snapshot last read or written: it sets the journal's compaction threshold. */
  bytes = 0;

  constructor(path: string) {
    this.path = path;
  }

  async read(): Promise<DataFile | null> {
    let text: string;
    try {
      // Read once, at start-up, when nothing else runs: a synchronous read is one pass, where the
      // async one is some fifty thread-pool round trips of 512 KB, each waiting for a wake-up.
      text = readFileSync(this.path).toString('utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return null;
      }
      throw new StoreFileError(`cannot read data file ${this.path}: ${(err as Error).message}`);
    }
    this.bytes = text.length;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new StoreFileError(
        `data file ${this.path} is not valid JSON (${(err as Error).message}); ` +
          'svc will not overwrite it: fix it, move it aside, or pass another --data',
      );
    }
    return checkFormat(this.path, data);
  }

  async write(data: DataFile): Promise<void> {
    const temp = join(dirname(this.path), `.${basename(this.path)}.tmp`);
    const handle = await open(temp, 'w');
    let bytes = 0;
    try {
      bytes = await serialize(data, async (chunk) => {
        await handle.write(chunk);
      });
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.path);
    await syncDirectory(dirname(this.path));
    this.bytes = bytes;
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

const CHUNK_CHARS = 1 << 20;

/**
 * Writes `data` as the data file's JSON, a record a line, handing ~1 MB chunks to `write` as it
 * goes: never one string of the whole store, and the event loop turns between chunks.
 */
async function serialize(data: DataFile, write: (chunk: string) => Promise<void>): Promise<number> {
  let parts: string[] = [];
  let pending = 0;
  let bytes = 0;
  const emit = async (part: string) => {
    parts.push(part);
    pending += part.length;
    if (pending >= CHUNK_CHARS) {
      await flush();
    }
  };
  const flush = async () => {
    const chunk = parts.join('');
    parts = [];
    pending = 0;
    bytes += Buffer.byteLength(chunk);
    await write(chunk);
  };
  const collections = async (colls: Record<string, Record<string, unknown>>) => {
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
  await emit(',"workspaces":{');
  let firstWs = true;
  for (const [wsId, colls] of Object.entries(data.workspaces)) {
    await emit(`${firstWs ? '' : ','}\n${JSON.stringify(wsId)}:`);
    firstWs = false;
    await collections(colls);
  }
  await emit('}}\n');
  await flush();
  return bytes;
}
