import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import type { ServiceContext } from '../context';

// About 64 MB of text at most (a job is about 2 KB of JSON: some 16,000 jobs).
const MAX_CHARS = 32 * 1024 * 1024;

interface Text {
  stamp: number;
  appUrl: string;
  text: string;
  /** The text as UTF-8, once an answer of the record alone asked for it (see bytes). */
  bytes?: Uint8Array;
}

/**
 * The JSON text of records as the API shows them, made once and kept while nothing it was made
 * from changes. Records are immutable (a change makes a new object), so one record object, the
 * versions of the other collections its presentation reads, and the base URL of its links name
 * one text. Making a page of 50 jobs' text again for every read was most of what a list cost.
 * Bounded: past MAX_CHARS it starts again empty rather than keep a text for every record.
 */
export class ShownTexts<R extends object> {
  readonly #reads: readonly Name<WorkspaceCollections>[];
  readonly #texts = new Map<R, Text>();
  #chars = 0;

  /** `reads`: every collection, besides the record's own, that its presentation looks at. */
  constructor(reads: readonly Name<WorkspaceCollections>[]) {
    this.#reads = reads;
  }

  text(ctx: ServiceContext, rec: R, present: () => unknown): string {
    return this.#text(this.#stamp(ctx), ctx.appUrl, rec, present).text;
  }

  /**
   * `text` as UTF-8, kept beside it. An answer of one record sends these bytes, and the request
   * log copies them: each encoded the text again on every read, a twentieth of what one cost.
   */
  bytes(ctx: ServiceContext, rec: R, present: () => unknown): Uint8Array {
    const made = this.#text(this.#stamp(ctx), ctx.appUrl, rec, present);
    if (made.bytes === undefined) {
      made.bytes = Buffer.from(made.text);
      if (this.#texts.get(rec) === made) {
        this.#count(made.bytes.length);
      }
    }
    return made.bytes;
  }

  /**
   * `text` for the records of one answer: the versions are read once, not once a record (nothing
   * commits while an answer is made).
   */
  texts(ctx: ServiceContext, present: (rec: R) => unknown): (rec: R) => string {
    const stamp = this.#stamp(ctx);
    return (rec) => this.#text(stamp, ctx.appUrl, rec, () => present(rec)).text;
  }

  #text(stamp: number | undefined, appUrl: string, rec: R, present: () => unknown): Text {
    const kept = this.#texts.get(rec);
    if (kept && kept.stamp === stamp && kept.appUrl === appUrl) {
      return kept;
    }
    const made: Text = { stamp: stamp ?? 0, appUrl, text: JSON.stringify(present()) };
    if (stamp !== undefined) {
      this.#chars -= (kept?.text.length ?? 0) + (kept?.bytes?.length ?? 0);
      this.#count(made.text.length);
      this.#texts.set(rec, made);
    }
    return made;
  }

  /** Counts `size` more kept; past MAX_CHARS, what was kept goes first. */
  #count(size: number): void {
    if (this.#chars + size > MAX_CHARS) {
      this.#texts.clear();
      this.#chars = 0;
    }
    this.#chars += size;
  }

  /** The sum of the versions read: it grows with any change to any of them. */
  #stamp(ctx: ServiceContext): number | undefined {
    let sum = 0;
    for (const coll of this.#reads) {
      const version = ctx.ws.version(coll);
      if (version === undefined) {
        return undefined; // inside a transaction: nothing kept, nothing reused
      }
      sum += version;
    }
    return sum;
  }
}
