import { type FileHandle, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { blankLines, missingIsFine, type Place, put } from './file-io';

export type { Place } from './file-io';

/** Lines in a generation before the next starts (see LogFiles). */
export const MAX_LINES = 20_000;

const CHUNK = 1 << 20;

interface Batch {
  rotate: boolean;
  bytes: Buffer;
  /** The generation its lines are in, and where they start and end there. */
  segment: number;
  from: number;
  to: number;
}

/**
 * The request log's lines on disk: `<file>` and, before it, `<file>.1`. Once `<file>` holds
 * MAX_LINES lines, or the next line would take it past half the byte budget, it becomes
 * `<file>.1` and a new `<file>` starts: the two stay within the budget and nothing is ever copied.
 * Lines are appended without fsync (docs/decisions.md).
 *
 * A line is encoded into a chunk of memory the moment it is added, and placed then (its
 * generation and offset are known at once, so the owner learns of a rotation as it happens and
 * drops the entries it took away); chunks go to the file in batches. Strings kept until their
 * write came round survived a collection or two, and copying them there cost more than writing
 * them. Placing at once needs the files' sizes: the owner adds no line before load() is done.
 */
export class LogFiles {
  readonly #file: string;
  readonly #failed: (err: unknown) => void;
  /** Both files together; null: no byte budget, the lines cap alone. */
  readonly #budget: number | null;
  /** File work, one step at a time: writes, rotations, deletions and reads never interleave. */
  #steps: Promise<void> = Promise.resolve();
  /** Kept open between writes; reopened after a rotation. */
  #handle: FileHandle | undefined;
  /**
   * The generation `<file>` holds, its size and line count, once every line added so far is
   * written (placement changes them, at once); `<file>.1` holds the one before, `#older` bytes.
   * Generations count from 0, `<file>.1`'s at start.
   */
  #segment = 1;
  #size = 0;
  #lines = 0;
  #older = 0;
  /** The file ends in a line cut short by a crash: the next line starts on a line of its own. */
  #cut = false;
  /** The next batch starts a new generation: `<file>` is renamed before it is written. */
  #rotate = false;
  #loaded: Promise<void> | undefined;
  #broken = false;
  #chunk = Buffer.allocUnsafe(CHUNK);
  #used = 0;
  /** Batches whose write failed: their lines are nowhere. */
  readonly #lost: Omit<Batch, 'rotate' | 'bytes'>[] = [];
  /** Where the line added last went (see add): reused, so that adding a line makes no object. */
  readonly placed: Place = { segment: 0, offset: 0, length: 0 };

  constructor(file: string, failed: (err: unknown) => void, budget: number | null = null) {
    this.#file = file;
    this.#budget = budget;
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

  /** The oldest generation still on disk (or about to be): a line placed before it is gone. */
  get oldest(): number {
    return this.#segment - 1;
  }

  /** Reads both files once, calling `each` for every whole line, oldest first. */
  load(each: (bytes: Buffer, start: number, end: number, place: Place) => void): Promise<void> {
    this.#loaded ??= this.#read(each).catch(this.#failed);
    return this.#loaded;
  }

  async #read(each: (bytes: Buffer, start: number, end: number, place: Place) => void) {
    const older = `${this.#file}.1`;
    const sizes = await Promise.all(
      [older, this.#file].map((p) =>
        stat(p).then(
          (s) => s.size,
          () => 0,
        ),
      ),
    );
    // Files a run with a bigger budget (or none, before there was one) left: what would take the
    // two past this budget goes, the older first, unread. Kept, they would hold it exceeded until
    // two rotations later; rewriting them to fit would copy what the budget is there to bound.
    if (this.#budget !== null) {
      const [was = 0, now = 0] = sizes;
      if (was > 0 && was + now > this.#budget) {
        await unlink(older).catch(() => {});
        sizes[0] = 0;
      }
      if (now > this.#budget) {
        await unlink(this.#file).catch(() => {});
        sizes[1] = 0;
      }
    }
    for (const [path, segment] of [
      [older, 0],
      [this.#file, 1],
    ] as const) {
      const bytes =
        sizes[segment] === 0 ? Buffer.alloc(0) : await readFile(path).catch(() => Buffer.alloc(0));
      let start = 0;
      let lines = 0;
      for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
        each(bytes, start, end, { segment, offset: start, length: end - start });
        lines += 1;
        start = end + 1;
      }
      if (segment === 0) {
        this.#older = bytes.length;
      } else {
        this.#size = bytes.length;
        this.#lines = lines;
        this.#cut = start < bytes.length;
      }
    }
  }

  /**
   * Adds the line `text` followed by `raw` (an answer's body, as sent); false once the files have
   * failed (see broken). Where it went is then `placed`.
   */
  add(text: string, raw?: string | Buffer): boolean {
    if (this.#broken) {
      return false;
    }
    // A newline ending a line cut short, and this line's own; UTF-8 takes at most 3 bytes a
    // UTF-16 unit.
    const most = 2 + (text.length + (raw?.length ?? 0)) * 3;
    if (this.#used + most > this.#chunk.length) {
      this.flush();
      if (this.#chunk.length < most) {
        this.#chunk = Buffer.allocUnsafe(Math.max(CHUNK, most));
      }
    }
    if (this.#cut) {
      this.#chunk[this.#used++] = 10;
      this.#size += 1;
      this.#cut = false;
    }
    const start = this.#used;
    let at = start + put(this.#chunk, text, start);
    if (raw !== undefined) {
      at += put(this.#chunk, raw, at);
    }
    this.#chunk[at] = 10;
    this.#used = at + 1;
    const bytes = at + 1 - start;
    if (this.#lines > 0 && this.#full(bytes)) {
      // The lines before this one go to the file as it is; this one starts the next generation.
      this.#handOver(start);
      this.#rotate = true;
      this.#segment += 1;
      this.#older = this.#size;
      this.#size = 0;
      this.#lines = 0;
    }
    this.placed.segment = this.#segment;
    this.placed.offset = this.#size;
    this.placed.length = bytes - 1;
    this.#size += bytes;
    this.#lines += 1;
    return true;
  }

  /**
   * Whether a line of `bytes` must start a new generation: at MAX_LINES, or when it would take
   * `<file>` past half the budget (so the two files together stay within it), or the two past the
   * whole (a `<file>.1` left bigger by an earlier run goes at the next rotation, not two later).
   */
  #full(bytes: number): boolean {
    if (this.#lines >= MAX_LINES) {
      return true;
    }
    if (this.#budget === null) {
      return false;
    }
    const size = this.#size + bytes;
    return size > this.#budget / 2 || this.#older + size > this.#budget;
  }

  /** Hands the lines added so far to a write. */
  flush(): void {
    this.#handOver(this.#used);
  }

  /** Hands the chunk's first `end` bytes (the lines pending but the one after them) to a write. */
  #handOver(end: number): void {
    if (end === 0) {
      return;
    }
    // Every line pending is in those bytes: the one after them (see add) is not pending yet.
    const batch: Batch = {
      rotate: this.#rotate,
      bytes: this.#chunk.subarray(0, end),
      segment: this.#segment,
      from: this.#size - end,
      to: this.#size,
    };
    // The rest of the chunk takes the next lines; the write holds on to what it was given.
    this.#chunk = this.#chunk.subarray(end);
    this.#used -= end;
    this.#rotate = false;
    // Steps run in order, after the files were read (the owner loads them before its first line),
    // so each batch goes where it was placed.
    this.#steps = this.#steps
      .then(async () => {
        await this.#loaded;
        await this.#write(batch);
      })
      .catch(this.#failed);
  }

  async #write(batch: Batch): Promise<void> {
    try {
      if (this.#broken) {
        throw new Error('an earlier write failed');
      }
      if (batch.rotate) {
        await this.#handle?.close();
        this.#handle = undefined;
        // The old `.1` goes first, not renamed over: ext4 (auto_da_alloc) writes out a file
        // renamed over another at the next journal commit, so every rotation put tens of MB of
        // log on the disk, and the data file's next fdatasync waited for them (decisions.md).
        await unlink(`${this.#file}.1`).catch(missingIsFine);
        // A <file> deleted by hand has nothing to set aside.
        await rename(this.#file, `${this.#file}.1`).catch(missingIsFine);
      }
      this.#handle ??= await open(this.#file, 'a');
      await this.#handle.writev([batch.bytes]);
    } catch (err) {
      this.#lost.push({ segment: batch.segment, from: batch.from, to: batch.to });
      throw err;
    }
  }

  /** The lines at `places`, after every write handed over; undefined where a line is gone. */
  read(places: readonly Place[]): Promise<(string | undefined)[]> {
    this.flush();
    // Once the writes handed over so far are done, the files are as placement has them now:
    // lines added later go to later steps.
    const segment = this.#segment;
    const read = this.#steps.then(async () => {
      const handles = new Map<number, FileHandle>();
      try {
        const out: (string | undefined)[] = [];
        for (const place of places) {
          out.push(await this.#readLine(place, segment, handles));
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

  async #readLine(
    place: Place,
    segment: number,
    handles: Map<number, FileHandle>,
  ): Promise<string | undefined> {
    // A generation before the one <file>.1 holds was rotated away; a lost line was never written.
    if (place.segment < segment - 1 || place.segment < 0 || this.#isLost(place)) {
      return undefined;
    }
    try {
      let handle = handles.get(place.segment);
      if (!handle) {
        const path = place.segment === segment ? this.#file : `${this.#file}.1`;
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

  #isLost(place: Place): boolean {
    return this.#lost.some(
      (b) => b.segment === place.segment && place.offset >= b.from && place.offset < b.to,
    );
  }

  /**
   * Overwrites the lines at `places` with spaces, their newlines kept: a line of a deleted
   * workspace says nothing any more, and every other line stays where it was placed. Done after
   * the writes handed over so far, so each line is where placement put it.
   */
  blank(places: readonly Place[]): Promise<void> {
    if (places.length === 0 || this.#loaded === undefined) {
      return Promise.resolve();
    }
    this.flush();
    const segment = this.#segment;
    this.#steps = this.#steps
      .then(async () => {
        await this.#loaded;
        for (const generation of [segment - 1, segment]) {
          const here = places.filter((p) => p.segment === generation && !this.#isLost(p));
          if (here.length > 0) {
            await blankLines(generation === segment ? this.#file : `${this.#file}.1`, here);
          }
        }
      })
      .catch(this.#failed);
    return this.#steps;
  }

  /**
   * After a purge: `kept` are the generations the entries still kept are in; a file none is in
   * goes. Decided now, against placement, and done after the writes handed over: a line added
   * later starts the emptied `<file>` afresh.
   */
  purge(kept: ReadonlySet<number>): Promise<void> {
    if (this.#loaded === undefined) {
      return Promise.resolve();
    }
    this.flush();
    const older = ![...kept].some((segment) => segment >= 0 && segment < this.#segment);
    const current = this.#size > 0 && !kept.has(this.#segment);
    if (older) {
      this.#older = 0;
    }
    if (current) {
      this.#size = 0;
      this.#lines = 0;
      this.#cut = false;
    }
    this.#steps = this.#steps
      .then(async () => {
        await this.#loaded;
        if (this.#broken) {
          return;
        }
        if (older) {
          await unlink(`${this.#file}.1`).catch(() => {});
        }
        if (current) {
          await this.#handle?.close();
          this.#handle = undefined;
          await unlink(this.#file).catch(() => {});
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
