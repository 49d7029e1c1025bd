import { type FileHandle, open, readFile, rename, unlink } from 'node:fs/promises';

/** Where a line is: the file generation it went to, its byte offset and length there. */
export interface Place {
  segment: number;
  offset: number;
  length: number;
}

/** The generation of a line not yet handed to a write: its offset is within the chunk. */
const UNPLACED = -1;
/** The generation of a line whose write failed: it is nowhere. */
const LOST = -2;

/** Lines in a generation before the next starts (see LogFiles). */
export const MAX_LINES = 20_000;

const CHUNK = 1 << 20;
const NEWLINE = Buffer.from('\n');

interface Batch {
  rotate: boolean;
  segment: number;
  buffers: Buffer[];
  places: Place[];
}

/**
 * The request log's lines on disk: `<file>` and, before it, `<file>.1`. Once `<file>` holds
 * MAX_LINES lines it becomes `<file>.1` and a new `<file>` starts: the files stay bounded and
 * nothing is ever copied. Lines are appended without fsync (docs/decisions.md).
 *
 * A line is encoded into a chunk of memory the moment it is added, its place known at once;
 * chunks go to the file in batches. Strings kept until their write came round survived a
 * collection or two, and copying them there cost more than writing them.
 */
export class LogFiles {
  readonly #file: string;
  readonly #failed: (err: unknown) => void;
  /** File work, one step at a time: writes, rotations, deletions and reads never interleave. */
  #steps: Promise<void> = Promise.resolve();
  /** Kept open between writes; reopened after a rotation. */
  #handle: FileHandle | undefined;
  /**
   * The generation `<file>` holds, its size and line count, as of the last step run (they are
   * read and changed only in steps); `<file>.1` holds the one before. Generations count from 0,
   * `<file>.1`'s at start.
   */
  #segment = 1;
  #size = 0;
  #lines = 0;
  /** The file ends in a line cut short by a crash: the next line starts on a line of its own. */
  #cut = false;
  #loaded: Promise<void> | undefined;
  #broken = false;
  #chunk = Buffer.allocUnsafe(CHUNK);
  #used = 0;
  #pending: Place[] = [];

  constructor(file: string, failed: (err: unknown) => void) {
    this.#file = file;
    this.#failed = (err) => {
      this.#broken = true;
      failed(err);
    };
  }

  /** A write has failed: the caller keeps its lines in memory from then on. */
  get broken(): boolean {
    return this.#broken;
  }

  /** Bytes added and not yet handed to a write. */
  get pendingBytes(): number {
    return this.#used;
  }

  /** Reads both files once, calling `each` for every whole line, oldest first. */
  load(each: (bytes: Buffer, start: number, end: number, place: Place) => void): Promise<void> {
    this.#loaded ??= this.#read(each).catch(this.#failed);
    return this.#loaded;
  }

  async #read(each: (bytes: Buffer, start: number, end: number, place: Place) => void) {
    for (const [path, segment] of [
      [`${this.#file}.1`, 0],
      [this.#file, 1],
    ] as const) {
      const bytes = await readFile(path).catch(() => Buffer.alloc(0));
      let start = 0;
      let lines = 0;
      for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
        each(bytes, start, end, { segment, offset: start, length: end - start });
        lines += 1;
        start = end + 1;
      }
      if (segment === 1) {
        this.#size = bytes.length;
        this.#lines = lines;
        this.#cut = start < bytes.length;
      }
    }
  }

  /** Adds the line made of `parts`; undefined once the files have failed (see broken). */
  add(parts: readonly string[]): Place | undefined {
    if (this.#broken) {
      return undefined;
    }
    let most = 1;
    for (const part of parts) {
      most += part.length * 3; // UTF-8 takes at most 3 bytes a UTF-16 unit
    }
    if (this.#used + most > this.#chunk.length) {
      this.flush();
      if (this.#chunk.length < most) {
        this.#chunk = Buffer.allocUnsafe(Math.max(CHUNK, most));
      }
    }
    const start = this.#used;
    let at = start;
    for (const part of parts) {
      at += this.#chunk.write(part, at);
    }
    this.#chunk[at] = 10;
    this.#used = at + 1;
    const place = { segment: UNPLACED, offset: start, length: at - start };
    this.#pending.push(place);
    return place;
  }

  /** Hands the lines added so far to a write. */
  flush(): void {
    if (this.#used === 0) {
      return;
    }
    const bytes = this.#chunk.subarray(0, this.#used);
    const places = this.#pending;
    // The rest of the chunk takes the next lines; the write holds on to what it was given.
    this.#chunk = this.#chunk.subarray(this.#used);
    this.#used = 0;
    this.#pending = [];
    // Placed when the step runs: steps run in order, after the files were read (the owner loads
    // them before its first line), so each batch goes where the one before it ended.
    this.#steps = this.#steps
      .then(async () => {
        await this.#loaded;
        await this.#write(this.#place(bytes, places));
      })
      .catch(this.#failed);
  }

  /** Gives `places` their generation and offset in the file as it is now. */
  #place(bytes: Buffer, places: Place[]): Batch {
    const rotate = this.#lines >= MAX_LINES;
    if (rotate) {
      this.#segment += 1;
      this.#size = 0;
      this.#lines = 0;
      this.#cut = false;
    }
    const buffers = this.#cut ? [NEWLINE, bytes] : [bytes];
    const base = this.#size + buffers.length - 1;
    for (const place of places) {
      place.segment = this.#segment;
      place.offset += base;
    }
    this.#size = base + bytes.length;
    this.#lines += places.length;
    this.#cut = false;
    return { rotate, segment: this.#segment, buffers, places };
  }

  async #write(batch: Batch): Promise<void> {
    try {
      if (this.#broken) {
        throw new Error('an earlier write failed');
      }
      if (batch.rotate) {
        await this.#handle?.close();
        this.#handle = undefined;
        await rename(this.#file, `${this.#file}.1`);
      }
      this.#handle ??= await open(this.#file, 'a');
      await this.#handle.writev(batch.buffers);
    } catch (err) {
      for (const place of batch.places) {
        place.segment = LOST;
      }
      throw err;
    }
  }

  /** The lines at `places`, after every write handed over; undefined where a line is gone. */
  read(places: readonly Place[]): Promise<(string | undefined)[]> {
    this.flush();
    const read = this.#steps.then(async () => {
      const handles = new Map<number, FileHandle>();
      try {
        const out: (string | undefined)[] = [];
        for (const place of places) {
          out.push(await this.#readLine(place, handles));
        }
        return out;
      } finally {
        await Promise.all([...handles.values()].map((h) => h.close()));
      }
    });
    this.#steps = read.then(
      () => {},
      () => {},
    );
    return read;
  }

  async #readLine(place: Place, handles: Map<number, FileHandle>): Promise<string | undefined> {
    // A generation before the one <file>.1 holds was rotated away.
    if (place.segment < this.#segment - 1) {
      return undefined;
    }
    try {
      let handle = handles.get(place.segment);
      if (!handle) {
        const path = place.segment === this.#segment ? this.#file : `${this.#file}.1`;
        handle = await open(path, 'r');
        handles.set(place.segment, handle);
      }
      const buffer = Buffer.alloc(place.length);
      const { bytesRead } = await handle.read(buffer, 0, place.length, place.offset);
      return bytesRead === place.length ? buffer.toString('utf8') : undefined;
    } catch {
      return undefined; // deleted by hand
    }
  }

  /** After a purge: `kept` are the places of the entries still kept; a file none is in goes. */
  purge(kept: readonly Place[]): Promise<void> {
    if (this.#loaded === undefined) {
      return Promise.resolve();
    }
    this.#steps = this.#steps
      .then(async () => {
        await this.#loaded;
        if (this.#broken) {
          return;
        }
        if (!kept.some((p) => p.segment >= 0 && p.segment < this.#segment)) {
          await unlink(`${this.#file}.1`).catch(() => {});
        }
        if (this.#size > 0 && !kept.some((p) => p.segment === this.#segment)) {
          await this.#handle?.close();
          this.#handle = undefined;
          await unlink(this.#file).catch(() => {});
          this.#size = 0;
          this.#lines = 0;
          this.#cut = false;
        }
      })
      .catch(this.#failed);
    return this.#steps;
  }

  /** Writes what was added, then lets the file go. */
  async close(): Promise<void> {
    await this.#loaded;
    this.flush();
    await this.#steps;
    await this.#handle?.close();
    this.#handle = undefined;
  }
}
