import { open, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Adapter } from 'lowdb';
import { type DataFile, FORMAT, FORMAT_VERSION, StoreFileError } from './types';

// lowdb adapter for the data file. lowdb's own JSONFile renames a temp file without fsync; the
// journal is truncated right after a snapshot, so the snapshot must be on disk first. Writing
// also yields to the event loop every few thousand records, so compacting a large store does
// not stall requests (records are immutable, so the view being written cannot change under it).
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
      text = await readFile(this.path, 'utf8');
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
    const text = await serialize(data);
    const temp = join(dirname(this.path), `.${basename(this.path)}.tmp`);
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, this.path);
    await syncDirectory(dirname(this.path));
    this.bytes = text.length;
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

const RECORDS_PER_SLICE = 2000;

async function serialize(data: DataFile): Promise<string> {
  const parts: string[] = [
    `{"format":${JSON.stringify(data.format)},"version":${data.version},"seq":${data.seq},"global":`,
  ];
  let count = 0;
  const collections = async (colls: Record<string, Record<string, unknown>>) => {
    parts.push('{');
    let firstColl = true;
    for (const [name, records] of Object.entries(colls)) {
      parts.push(`${firstColl ? '' : ','}${JSON.stringify(name)}:{`);
      firstColl = false;
      let first = true;
      for (const [id, rec] of Object.entries(records)) {
        parts.push(`${first ? '' : ','}\n${JSON.stringify(id)}:${JSON.stringify(rec)}`);
        first = false;
        if (++count % RECORDS_PER_SLICE === 0) {
          await yieldToLoop();
        }
      }
      parts.push('}');
    }
    parts.push('}');
  };
  await collections(data.global);
  parts.push(',"workspaces":{');
  let firstWs = true;
  for (const [wsId, colls] of Object.entries(data.workspaces)) {
    parts.push(`${firstWs ? '' : ','}\n${JSON.stringify(wsId)}:`);
    firstWs = false;
    await collections(colls);
  }
  parts.push('}}\n');
  return parts.join('');
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
