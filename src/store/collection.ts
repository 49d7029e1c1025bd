import { createdAt, OrderIndex } from './order';
import { type Rec, type ScanOptions, SpanRecords } from './types';

/** One collection of one scope in memory: records by id, and their order once a list asks. */
export class Collection {
  #byId: Map<string, Rec> | undefined;
  #loaded: Record<string, Rec> | SpanRecords | undefined;
  #order: OrderIndex | undefined;
  readonly #indexes = new Map<string, Map<string, OrderIndex>>();
  /** Counts the changes applied: what was made from this collection's records is stale once it moves. */
  version = 0;

  /** `loaded`: the records as the data file holds them, turned into a Map on first use. */
  constructor(loaded?: Record<string, Rec> | Map<string, Rec> | SpanRecords) {
    if (loaded instanceof Map) {
      this.#byId = loaded;
    } else {
      this.#loaded = loaded;
    }
  }

  /** Whether its records are still the data file's bytes (see SpanRecords). */
  get unparsed(): boolean {
    return this.#loaded instanceof SpanRecords;
  }

  get byId(): Map<string, Rec> {
    if (this.#byId === undefined) {
      const loaded = this.#loaded;
      this.#byId =
        loaded instanceof SpanRecords
          ? loaded.parse()
          : new Map(loaded ? Object.entries(loaded) : []);
      this.#loaded = undefined;
    }
    return this.#byId;
  }

  /** Built on first use: a start-up never pays for indexes nobody has asked for. */
  get order(): OrderIndex {
    this.#order ??= new OrderIndex(this.byId.values());
    return this.#order;
  }

  /**
   * The records whose `field` holds each value, in list order, built on first use and kept with
   * every change after: a job's payments (or notes, tasks, files ...) are read without a scan of
   * the workspace's whole collection (issue 35: `GET /payments?job_id=` answered 14% of what a
   * bare route did, walking 20,000 payments for two).
   */
  indexOn(field: string): Map<string, OrderIndex> {
    let index = this.#indexes.get(field);
    if (index === undefined) {
      const groups = new Map<string, Rec[]>();
      for (const rec of this.byId.values()) {
        const value = fieldOf(rec, field);
        if (value !== undefined) {
          const group = groups.get(value);
          if (group) {
            group.push(rec);
          } else {
            groups.set(value, [rec]);
          }
        }
      }
      index = new Map([...groups].map(([value, recs]) => [value, new OrderIndex(recs)]));
      this.#indexes.set(field, index);
    }
    return index;
  }

  /**
   * A page of the records newest first (by `created_at`, then id), after `opts.after`, those
   * `where` takes, or of the records whose `opts.on` field holds a value (its index).
   */
  scan(opts: ScanOptions<Rec>): { items: Rec[]; hasMore: boolean } {
    const items: Rec[] = [];
    const order =
      opts.on === undefined ? this.order : this.indexOn(opts.on.field).get(opts.on.value);
    for (const id of order?.newestFirst(opts.after) ?? []) {
      const rec = this.byId.get(id);
      if (rec !== undefined && (opts.where === undefined || opts.where(rec))) {
        if (items.length === opts.limit) {
          return { items, hasMore: true };
        }
        items.push(rec);
      }
    }
    return { items, hasMore: false };
  }

  set(rec: Rec, before: Rec | undefined): void {
    this.version += 1;
    this.byId.set(rec.id, rec);
    const moved = before === undefined || createdAt(before) !== createdAt(rec);
    if (this.#order && moved) {
      if (before) {
        this.#order.remove(before);
      }
      this.#order.add(rec);
    }
    for (const [field, index] of this.#indexes) {
      const was = before === undefined ? undefined : fieldOf(before, field);
      const now = fieldOf(rec, field);
      if (was === now && !moved) {
        continue;
      }
      if (before !== undefined && was !== undefined) {
        index.get(was)?.remove(before);
      }
      if (now !== undefined) {
        const into = index.get(now);
        if (into) {
          into.add(rec);
        } else {
          index.set(now, new OrderIndex([rec]));
        }
      }
    }
  }

  delete(before: Rec): void {
    this.version += 1;
    this.byId.delete(before.id);
    this.#order?.remove(before);
    for (const [field, index] of this.#indexes) {
      const was = fieldOf(before, field);
      const from = was === undefined ? undefined : index.get(was);
      from?.remove(before);
      if (from?.size === 0 && was !== undefined) {
        index.delete(was);
      }
    }
  }
}

/** A record's value of `field` when it is a string (what an index holds); undefined otherwise. */
function fieldOf(rec: Rec, field: string): string | undefined {
  const value = (rec as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
}
