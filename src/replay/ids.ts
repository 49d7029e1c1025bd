// Ids follow: an id a recorded answer created is mapped to the one the replayed answer created,
// and every later path, query and body has it replaced, whole ids only.

const TOKEN = /[A-Za-z0-9_-]+/g;

export class IdMap {
  readonly #map = new Map<string, string>();

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
    if (this.#map.size === 0) {
      return text;
    }
    return text.replace(TOKEN, (token) => this.#map.get(token.toLowerCase()) ?? token);
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
