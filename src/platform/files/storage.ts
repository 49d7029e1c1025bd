import { randomUUID } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  type ReadStream,
  readdirSync,
  rmSync,
  type WriteStream,
} from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GLOBAL, type Store } from '../../store';
import type { SharedBlobs } from '../../store/pg/blobs';

// decisions.md, Files: uploaded bytes live beside the data file, in `<data>.files/<workspace>/<id>`,
// one file each; an upload is written to `<data>.files/.incoming/` first and moved into place,
// fsynced, before its record commits, so a record never names bytes that are not on disk. A store
// with no data file (tests, a throw-away server) keeps them in a temp directory of its own,
// removed when the process exits.

const INCOMING = '.incoming';
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The directory that holds a data file's uploaded bytes. */
export const filesDirOf = (dataFile: string): string => `${dataFile}.files`;

const throwaway = new Set<string>();
let removeAtExit = false;
function removedAtExit(dir: string): void {
  throwaway.add(dir);
  if (!removeAtExit) {
    removeAtExit = true;
    process.once('exit', () => {
      for (const path of throwaway) {
        rmSync(path, { recursive: true, force: true });
      }
    });
  }
}

/** An upload being written: bytes land in a temp file until they are kept or discarded. */
export class Incoming {
  readonly path: string;
  #stream: WriteStream | undefined;

  constructor(path: string) {
    this.path = path;
  }

  /**
   * Where the bytes are written. The file is fsynced before it is closed, and a pipeline into it
   * settles once it is closed: by then what was written is on disk.
   */
  writable(): WriteStream {
    this.#stream ??= createWriteStream(this.path, { flags: 'wx', flush: true });
    return this.#stream;
  }

  /** Nothing of it is kept. */
  async discard(): Promise<void> {
    const stream = this.#stream;
    if (stream && !stream.closed) {
      await new Promise<void>((resolve) => {
        stream.once('close', () => resolve());
        stream.destroy();
      });
    }
    await unlink(this.path).catch(() => undefined);
  }
}

export class FileStorage {
  readonly #root: string | undefined;
  #made: string | undefined;
  /**
   * Several nodes (store/pg/blobs.ts): where every node's uploads' bytes are kept as well, so a
   * file uploaded through one node downloads through any.
   */
  shared: SharedBlobs | undefined;

  /** `root`: the directory beside the data file; none for a store that lives in memory. */
  constructor(root?: string) {
    this.#root = root;
    if (root !== undefined) {
      // What an upload cut short by a crash left behind was never acknowledged.
      rmSync(join(root, INCOMING), { recursive: true, force: true });
    }
  }

  get root(): string {
    if (this.#root !== undefined) {
      return this.#root;
    }
    if (this.#made === undefined) {
      this.#made = mkdtempSync(join(tmpdir(), 'svc-files-'));
      removedAtExit(this.#made);
    }
    return this.#made;
  }

  /** A temp file for an upload's bytes. */
  async incoming(): Promise<Incoming> {
    const dir = join(this.root, INCOMING);
    await mkdir(dir, { recursive: true });
    return new Incoming(join(dir, randomUUID()));
  }

  /** Moves finished bytes into place as file `id` of workspace `wsId`, durably. */
  async keep(incoming: Incoming, wsId: string, id: string): Promise<void> {
    const dir = join(this.root, safe(wsId));
    await mkdir(dir, { recursive: true });
    await rename(incoming.path, join(dir, safe(id)));
    await syncDir(dir);
    await syncDir(this.root);
    await this.shared?.put(wsId, id, await readFile(join(dir, id)));
  }

  /** With several nodes, bytes another node took: copied here from the shared table, once. */
  async #fetched(wsId: string, id: string, path: string): Promise<boolean> {
    const bytes = await this.shared?.get(wsId, id);
    if (bytes === undefined) {
      return false;
    }
    const incoming = await this.incoming();
    await writeFile(incoming.path, bytes, { flush: true });
    const dir = join(this.root, wsId);
    await mkdir(dir, { recursive: true });
    await rename(incoming.path, path);
    return true;
  }

  /** The kept bytes of a file, to stream from disk; undefined when none are. */
  async read(
    wsId: string,
    id: string,
  ): Promise<{ size: number; open: () => ReadStream } | undefined> {
    const path = this.#path(wsId, id);
    if (path === undefined) {
      return undefined;
    }
    try {
      const { size } = await stat(path);
      return { size, open: () => createReadStream(path) };
    } catch {
      if (this.shared && (await this.#fetched(wsId, id, path))) {
        return this.read(wsId, id);
      }
      return undefined;
    }
  }

  /** A file's whole bytes (a workspace snapshot carries them); undefined when none are kept. */
  async bytes(wsId: string, id: string): Promise<Buffer | undefined> {
    const path = this.#path(wsId, id);
    if (path === undefined) {
      return undefined;
    }
    const here = await readFile(path).catch(() => undefined);
    return here ?? (await this.shared?.get(wsId, id));
  }

  /** Keeps `bytes` as file `id` of workspace `wsId`, durably, as an upload is kept. */
  async write(wsId: string, id: string, bytes: Uint8Array): Promise<void> {
    const incoming = await this.incoming();
    await writeFile(incoming.path, bytes, { flush: true });
    await this.keep(incoming, wsId, id);
  }

  /** Removes a file's bytes (gone already is fine). */
  async remove(wsId: string, id: string): Promise<void> {
    const path = this.#path(wsId, id);
    if (path !== undefined) {
      await unlink(path).catch(() => undefined);
      await this.shared?.remove(wsId, id).catch(() => undefined);
    }
  }

  /**
   * Removes the bytes of every file record that leaves the store (a job purged after its 30 days,
   * a workspace restored from a snapshot without it), once that removal is on disk: a crash in
   * between must not leave a record whose bytes are gone.
   */
  watch(store: Store): void {
    store.onApplied((changes) => {
      const gone = changes.filter(
        (c) => c.coll === 'files' && c.scope !== GLOBAL && c.before && !c.after,
      );
      if (gone.length > 0) {
        void store
          .sync()
          .then(() => Promise.all(gone.map((c) => this.remove(c.scope, c.id))))
          .catch(() => undefined);
      }
    });
  }

  /** Removes every byte of workspace `wsId` (deleted for good). */
  async removeWorkspace(wsId: string): Promise<void> {
    if (ID.test(wsId)) {
      await rm(join(this.root, wsId), { recursive: true, force: true });
      await this.shared?.removeWorkspace(wsId).catch(() => undefined);
    }
  }

  /**
   * Removes the bytes of workspaces that no longer exist: a svc stopped between a workspace's
   * deletion reaching the disk and its bytes going leaves them, and the next start takes them.
   */
  async sweep(exists: (wsId: string) => boolean): Promise<void> {
    if (this.#root === undefined) {
      return;
    }
    // Listed now, before any request: a workspace made from a snapshot writes its bytes before
    // its record commits, and must not be taken for one deleted.
    let names: string[];
    try {
      names = readdirSync(this.#root).filter((name) => ID.test(name) && !exists(name));
    } catch {
      return;
    }
    for (const name of names) {
      await this.removeWorkspace(name);
    }
  }

  #path(wsId: string, id: string): string | undefined {
    return ID.test(wsId) && ID.test(id) ? join(this.root, wsId, id) : undefined;
  }
}

function safe(id: string): string {
  if (!ID.test(id)) {
    throw new Error(`not a record id: ${id}`);
  }
  return id;
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
