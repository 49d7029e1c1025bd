import { randomBytes } from 'node:crypto';
import type { SharedFlashes } from '../../store/pg/flashes';
import type { Move } from './clock';

/** A value shown once after an action: a new key, a webhook or an OAuth app's secret. */
export interface Shown {
  label: string;
  value: string;
}

/** What the page a form redirects to says about what the form did. */
export interface Flash {
  kind: 'ok' | 'bad';
  text: string;
  shown?: Shown[];
  /** A clock form's move, for the page to show what fell due on any node. */
  move?: Move;
}

/** Long enough to follow a redirect; a secret never outlives the moment it was shown in. */
const LIFETIME_MS = 5 * 60 * 1000;
/** Forms posted and never followed (a script, a closed tab) cannot grow the store without end. */
const MAX_HELD = 200;

/**
 * What an action's redirect carries to the page it lands on, read once. A secret goes this way
 * and never into the address: addresses end up in the history, in logs and in Referer headers.
 * Kept in memory under an unguessable id, and in real time: moving svc's clock must not expire it.
 * On PostgreSQL, kept in the schema instead, since with several nodes the page may be another
 * node's; taken from there (`fetch`) before the page is made.
 */
export class FlashStore {
  readonly #held = new Map<string, { flash: Flash; expires: number }>();
  readonly #shared: SharedFlashes | undefined;

  constructor(shared?: SharedFlashes) {
    this.#shared = shared;
  }

  async put(flash: Flash): Promise<string> {
    const id = randomBytes(16).toString('base64url');
    if (this.#shared) {
      await this.#shared.put(id, flash, LIFETIME_MS);
    } else {
      this.#hold(id, flash, LIFETIME_MS);
    }
    return id;
  }

  /** On PostgreSQL: the flash under `id`, taken from the schema, for `take` to find here. */
  async fetch(id: string | undefined): Promise<void> {
    const taken = id === undefined ? undefined : await this.#shared?.take(id);
    if (id !== undefined && taken !== undefined) {
      this.#hold(id, taken.flash as Flash, taken.leftMs);
    }
  }

  #hold(id: string, flash: Flash, ms: number): void {
    if (this.#held.size >= MAX_HELD) {
      const oldest = this.#held.keys().next();
      if (!oldest.done) {
        this.#held.delete(oldest.value);
      }
    }
    this.#held.set(id, { flash, expires: Date.now() + ms });
  }

  /** The flash under `id`, once: a reload shows the page without it. */
  take(id: string | undefined): Flash | undefined {
    if (id === undefined) {
      return undefined;
    }
    const held = this.#held.get(id);
    this.#held.delete(id);
    return held && held.expires > Date.now() ? held.flash : undefined;
  }
}

/** `path` with the flash's id added to its query. */
export function withFlash(path: string, id: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}flash=${id}`;
}
