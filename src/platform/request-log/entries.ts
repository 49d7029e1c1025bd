import type { Place } from './files';
import type { Filters } from './lines';

/** The generation of an entry whose line is kept in memory (no file, or a failed one). */
export const IN_MEMORY = -1;

/** What a query takes of a found entry: it must outlive the ring's slot (see Entries). */
export interface Found {
  id: string;
  place: Place | undefined;
  line: string | undefined;
}

/** An entry of the log as a line of the files has it: its filter fields and where it is. */
export interface Loaded extends Omit<Filters, 'id' | 'at'> {
  atMs: number;
  place: Place;
}

const FIRST_CAPACITY = 1024;

/**
 * What an entry of a deleted workspace says in its workspace's place: no filter matches it, and
 * the ring keeps its slot (entries leave from the oldest end only, so ids stay consecutive).
 */
export const FORGOTTEN = '\u0000forgotten';

export const idOf = (seq: number) => `rq_${String(seq).padStart(10, '0')}`;

/**
 * The entries the log keeps, oldest first, in columns of a ring: logging a call stores numbers and
 * references to strings it already had, and makes no object. An object an entry (and its place)
 * lived as long as the entry, so every call logged left the collector objects to copy and promote:
 * the log cost a read more than all else svc adds to it. Entries leave from the oldest end only,
 * so ids are consecutive: an entry's is the oldest's plus its position.
 */
export class Entries {
  readonly #max: number;
  #capacity = 0;
  /** The slot of the oldest entry, and how many there are. */
  #start = 0;
  #size = 0;
  /** The id number of the oldest entry. */
  #firstSeq = 1;
  /** The bytes of the lines kept in memory. */
  memoryBytes = 0;
  #atMs = new Float64Array(0);
  /** Its workspace's clock's lead over the server's then (see NewEntry.leadMs). */
  #leadMs = new Float64Array(0);
  #status = new Uint16Array(0);
  /** The generation of the entry's line, or IN_MEMORY. */
  #segment = new Int32Array(0);
  #offset = new Float64Array(0);
  /** The line's length in its file, or its bytes when it is kept in memory. */
  #length = new Float64Array(0);
  #method: string[] = [];
  #path: string[] = [];
  #keyId: string[] = [];
  #workspaceId: string[] = [];
  #fault: (string | undefined)[] = [];
  #line: (string | undefined)[] = [];

  /** At most `max` entries; adding one more drops the oldest. */
  constructor(max: number) {
    this.#max = max;
  }

  get size(): number {
    return this.#size;
  }

  /** The id number the next entry gets. */
  get nextSeq(): number {
    return this.#firstSeq + this.#size;
  }

  /** Empties the ring; ids start again from 1. */
  reset(): void {
    this.#start = 0;
    this.#size = 0;
    this.#firstSeq = 1;
    this.memoryBytes = 0;
  }

  /** Adds the newest entry, its line in the files at `place`, or kept as `line` in memory. */
  push(
    fields: Omit<Filters, 'id' | 'at'>,
    atMs: number,
    place: Place | undefined,
    line: string | undefined,
    lineBytes: number,
    leadMs = 0,
  ): void {
    if (this.#size === this.#max) {
      this.dropOldest(1);
    }
    if (this.#size === this.#capacity) {
      this.#grow();
    }
    const slot = (this.#start + this.#size) % this.#capacity;
    this.#size += 1;
    this.#atMs[slot] = atMs;
    this.#leadMs[slot] = leadMs;
    this.#status[slot] = fields.status;
    this.#method[slot] = fields.method;
    this.#path[slot] = fields.path;
    this.#keyId[slot] = fields.key_id;
    this.#workspaceId[slot] = fields.workspace_id;
    this.#fault[slot] = fields.fault;
    if (place) {
      this.#segment[slot] = place.segment;
      this.#offset[slot] = place.offset;
      this.#length[slot] = place.length;
      this.#line[slot] = undefined;
    } else {
      this.#segment[slot] = IN_MEMORY;
      this.#length[slot] = lineBytes;
      this.#line[slot] = line;
      this.memoryBytes += lineBytes;
    }
  }

  /** Drops the `n` oldest entries. */
  dropOldest(n: number): void {
    for (let i = 0; i < n; i++) {
      const slot = this.#slot(i);
      if (this.#segment[slot] === IN_MEMORY) {
        this.memoryBytes -= this.#length[slot] as number;
        this.#line[slot] = undefined;
      }
      this.#path[slot] = ''; // the strings go with the entry
    }
    this.#start = (this.#start + n) % Math.max(this.#capacity, 1);
    this.#size -= n;
    this.#firstSeq += n;
  }

  /**
   * The entries of workspace `wsId` are forgotten: they match nothing from now on, and their lines
   * kept in memory go. Answers where the others' lines are in the files, to be blanked there.
   */
  forget(wsId: string): Place[] {
    const places: Place[] = [];
    for (let i = 0; i < this.#size; i++) {
      const slot = this.#slot(i);
      if (this.#workspaceId[slot] !== wsId) {
        continue;
      }
      this.#workspaceId[slot] = FORGOTTEN;
      this.#keyId[slot] = FORGOTTEN;
      this.#path[slot] = '';
      this.#fault[slot] = undefined;
      const segment = this.#segment[slot] as number;
      if (segment === IN_MEMORY) {
        this.memoryBytes -= this.#length[slot] as number;
        this.#length[slot] = 0;
        this.#line[slot] = undefined;
      } else {
        const place = {
          segment,
          offset: this.#offset[slot] as number,
          length: this.#length[slot] as number,
        };
        places.push(place);
      }
    }
    return places;
  }

  // Reads of the entry at position `i`, 0 the oldest.
  #slot(i: number): number {
    return (this.#start + i) % this.#capacity;
  }
  seqAt(i: number): number {
    return this.#firstSeq + i;
  }
  atMsAt(i: number): number {
    return this.#atMs[this.#slot(i)] as number;
  }
  leadMsAt(i: number): number {
    return this.#leadMs[this.#slot(i)] as number;
  }
  segmentAt(i: number): number {
    return this.#segment[this.#slot(i)] as number;
  }
  lengthAt(i: number): number {
    return this.#length[this.#slot(i)] as number;
  }

  workspaceAt(i: number): string {
    return this.#workspaceId[this.#slot(i)] as string;
  }

  /** What the filters read of the entry at `i`. */
  filtersAt(i: number): Omit<Filters, 'id' | 'at'> {
    const slot = this.#slot(i);
    return {
      method: this.#method[slot] as string,
      path: this.#path[slot] as string,
      status: this.#status[slot] as number,
      key_id: this.#keyId[slot] as string,
      workspace_id: this.#workspaceId[slot] as string,
      fault: this.#fault[slot],
    };
  }

  /** What a query keeps of the entry at `i` (see Found). */
  foundAt(i: number): Found {
    const slot = this.#slot(i);
    const segment = this.#segment[slot] as number;
    return {
      id: idOf(this.seqAt(i)),
      place:
        segment === IN_MEMORY
          ? undefined
          : {
              segment,
              offset: this.#offset[slot] as number,
              length: this.#length[slot] as number,
            },
      line: this.#line[slot],
    };
  }

  #grow(): void {
    const capacity = Math.min(this.#max, Math.max(FIRST_CAPACITY, this.#capacity * 2));
    const order = Array.from({ length: this.#size }, (_, i) => this.#slot(i));
    const typed = <A extends Float64Array | Uint16Array | Int32Array>(old: A, made: A): A => {
      order.forEach((slot, i) => {
        made[i] = old[slot] as number;
      });
      return made;
    };
    const plain = <T>(old: T[], empty: T): T[] => {
      const made = new Array<T>(capacity).fill(empty);
      order.forEach((slot, i) => {
        made[i] = old[slot] as T;
      });
      return made;
    };
    this.#atMs = typed(this.#atMs, new Float64Array(capacity));
    this.#leadMs = typed(this.#leadMs, new Float64Array(capacity));
    this.#status = typed(this.#status, new Uint16Array(capacity));
    this.#segment = typed(this.#segment, new Int32Array(capacity));
    this.#offset = typed(this.#offset, new Float64Array(capacity));
    this.#length = typed(this.#length, new Float64Array(capacity));
    this.#method = plain(this.#method, '');
    this.#path = plain(this.#path, '');
    this.#keyId = plain(this.#keyId, '');
    this.#workspaceId = plain(this.#workspaceId, '');
    this.#fault = plain<string | undefined>(this.#fault, undefined);
    this.#line = plain<string | undefined>(this.#line, undefined);
    this.#start = 0;
    this.#capacity = capacity;
  }
}
