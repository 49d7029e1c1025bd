import { createdAt, OrderIndex } from './order';
import { type Rec, SpanRecords } from './types';

/** One collection of one scope in memory: records by id, and their order once a list asks. */
export class Collection {
  #byId: Map<string, Rec> | undefined;
  #loaded: Record<string, Rec> | SpanRecords | undefined;
  #order: OrderIndex | undefined;
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

  set(rec: Rec, before: Rec | undefined): void {
    this.version += 1;
    this.byId.set(rec.id, rec);
    if (this.#order && (before === undefined || createdAt(before) !== createdAt(rec))) {
      if (before) {
        this.#order.remove(before);
      }
      this.#order.add(rec);
    }
  }

  delete(before: Rec): void {
    this.version += 1;
    this.byId.delete(before.id);
    this.#order?.remove(before);
  }
}
