import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import type { ServiceContext } from '../context';

// About 64 MB of text at most (a job is about 2 KB of JSON: some 16,000 jobs).
const MAX_CHARS = 32 * 1024 * 1024;

interface Text {
  stamp: number;
  appUrl: string;
  text: string;
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
    return this.#text(this.#stamp(ctx), ctx.appUrl, rec, present);
  }

  /**
   * `text` for the records of one answer: the versions are read once, not once a record (nothing
   * commits while an answer is made).
   */
  texts(ctx: ServiceContext, present: (rec: R) => unknown): (rec: R) => string {
    const stamp = this.#stamp(ctx);
    return (rec) => this.#text(stamp, ctx.appUrl, rec, () => present(rec));
  }

  #text(stamp: number | undefined, appUrl: string, rec: R, present: () => unknown): string {
    const kept = this.#texts.get(rec);
    if (kept && kept.stamp === stamp && kept.appUrl === appUrl) {
      return kept.text;
    }
    const text = JSON.stringify(present());
    if (stamp !== undefined) {
      this.#chars -= kept?.text.length ?? 0;
      if (this.#chars + text.length > MAX_CHARS) {
        this.#texts.clear();
        this.#chars = 0;
      }
      this.#chars += text.length;
      this.#texts.set(rec, { stamp, appUrl, text });
    }
    return text;
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
