import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import type { ServiceContext } from '../service-context';

// About 64 MB of JSON at most (a job is about 2 KB of it: some 30,000 jobs).
const MAX_BYTES = 64 * 1024 * 1024;

interface Shown {
  stamp: number;
  appUrl: string;
  json: Buffer<ArrayBuffer>;
}

/**
 * The JSON of records as the API shows them, as the UTF-8 bytes an answer sends, made once and
 * kept while nothing it was made from changes. Records are immutable (a change makes a new
 * object), so one record object, the versions of the other collections its presentation reads,
 * and the base URL of its links name one text. Making a page of 50 jobs' text again for every
 * read was most of what a list cost; kept as text, joining and encoding it again was most of the
 * rest (issue 35). Bounded: past MAX_BYTES it starts again empty rather than keep every record's.
 */
export class ShownJson<R extends object> {
  readonly #reads: readonly Name<WorkspaceCollections>[];
  readonly #kept = new Map<R, Shown>();
  #bytes = 0;

  /** `reads`: every collection, besides the record's own, that its presentation looks at. */
  constructor(reads: readonly Name<WorkspaceCollections>[]) {
    this.#reads = reads;
  }

  json(ctx: ServiceContext, rec: R, present: () => unknown): Buffer<ArrayBuffer> {
    return this.#json(this.#stamp(ctx), ctx.appUrl, rec, present);
  }

  /**
   * `json` for the records of one answer: the versions are read once, not once a record (nothing
   * commits while an answer is made).
   */
  jsons(ctx: ServiceContext, present: (rec: R) => unknown): (rec: R) => Buffer<ArrayBuffer> {
    const stamp = this.#stamp(ctx);
    return (rec) => this.#json(stamp, ctx.appUrl, rec, () => present(rec));
  }

  #json(
    stamp: number | undefined,
    appUrl: string,
    rec: R,
    present: () => unknown,
  ): Buffer<ArrayBuffer> {
    const kept = this.#kept.get(rec);
    if (kept && kept.stamp === stamp && kept.appUrl === appUrl) {
      return kept.json;
    }
    const text = JSON.stringify(present());
    if (stamp === undefined) {
      return Buffer.from(text);
    }
    // A buffer of its own: one cut from Node's shared pool would keep the pool's other 8 KB
    // alive as long as the record's text is kept.
    const json = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    json.write(text);
    this.#bytes -= kept?.json.length ?? 0;
    if (this.#bytes + json.length > MAX_BYTES) {
      this.#kept.clear();
      this.#bytes = 0;
    }
    this.#bytes += json.length;
    this.#kept.set(rec, { stamp, appUrl, json });
    return json;
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
