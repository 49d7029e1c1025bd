// Ids follow: an id a recorded answer created is mapped to the one the replayed answer created,
// and every later path, query and body has it replaced, whole ids only. Cursors follow the same
// way: a recorded list's next_cursor is mapped to the one the replayed list gave.

const TOKEN = /[A-Za-z0-9_-]+/g;
/** A cursor's letters: base64 and base64url, and `.`, `~`, `=` (svc's are `payload.mac`). */
const WIDE_TOKEN = /[A-Za-z0-9_.~+=-]+/g;

export class IdMap {
  readonly #map = new Map<string, string>();
  /** Recorded next_cursor to the replayed one; exact, as cursors are opaque and case-sensitive. */
  readonly #cursors = new Map<string, string>();
  /** A list (its path and query but the cursor) to its replayed next_cursor, when the log
   * truncated the recorded page and so lost the recorded next_cursor. */
  readonly #unread = new Map<string, string>();

  get size(): number {
    return this.#map.size;
  }

  get(recorded: string): string | undefined {
    return this.#map.get(recorded.toLowerCase());
  }

  /**
   * `text` with every mapped id replaced. An id is a whole token of letters, digits, `-` and `_`,
   * so an id inside a longer word is left alone; ids are case-insensitive (decisions.md).
   */
  apply(text: string): string {
    if (this.#map.size === 0 && this.#cursors.size === 0) {
      return text;
    }
    // A whole mapped cursor first (its letters include `.`, `+`, `=`), else the ids in it.
    return text.replace(WIDE_TOKEN, (wide) => this.#cursors.get(wide) ?? this.#ids(wide));
  }

  /** A query value: a mapped cursor when the whole value is one, else as apply. */
  applyValue(value: string): string {
    return this.#cursors.get(value) ?? this.apply(value);
  }

  /**
   * The `cursor` of a request of `list`: the mapped one; or, when the recorded page before it was
   * truncated in the log, the next_cursor the replayed page gave (learnUnreadCursor).
   */
  applyCursor(list: string, recorded: string): string {
    const known = this.#cursors.get(recorded);
    if (known !== undefined) {
      return known;
    }
    const unread = this.#unread.get(list);
    if (unread !== undefined) {
      this.#unread.delete(list);
      this.#cursors.set(recorded, unread);
      return unread;
    }
    return this.apply(recorded);
  }

  /** A list page whose recorded answer the log truncated: the replayed next_cursor, kept. */
  learnUnreadCursor(list: string, now: unknown): void {
    const is = isObject(now) ? now.next_cursor : undefined;
    if (typeof is === 'string') {
      this.#unread.set(list, is);
    } else {
      this.#unread.delete(list);
    }
  }

  #ids(text: string): string {
    if (this.#map.size === 0) {
      return text;
    }
    return text.replace(TOKEN, (token) => this.#map.get(token.toLowerCase()) ?? token);
  }

  /**
   * Learns from a list page answered in both: the recorded `next_cursor` is the replayed one
   * from now on, so a later page asked with the recorded cursor is asked with the target's.
   */
  learnCursor(recorded: unknown, now: unknown): void {
    if (!isObject(recorded) || !isObject(now)) {
      return;
    }
    const [was, is] = [recorded.next_cursor, now.next_cursor];
    if (typeof was === 'string' && typeof is === 'string' && was !== '' && was !== is) {
      this.#cursors.set(was, is);
    }
  }

  /**
   * Learns from a create: every `id` at the same place in the recorded and the new answer (the
   * record's own, and those of records made with it, such as each subscription of an `events`
   * list). An id mapped once keeps its mapping, so an idempotent retry, whose answer repeats the
   * first, maps to the same new id.
   */
  learn(recorded: unknown, now: unknown): void {
    if (Array.isArray(recorded) && Array.isArray(now)) {
      const n = Math.min(recorded.length, now.length);
      for (let i = 0; i < n; i++) {
        this.learn(recorded[i], now[i]);
      }
      return;
    }
    if (!isObject(recorded) || !isObject(now)) {
      return;
    }
    const [was, is] = [recorded.id, now.id];
    if (typeof was === 'string' && typeof is === 'string' && was !== is && !this.get(was)) {
      this.#map.set(was.toLowerCase(), is);
    }
    for (const [key, value] of Object.entries(recorded)) {
      if (key !== 'id' && typeof value === 'object' && value !== null) {
        this.learn(value, now[key]);
      }
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
