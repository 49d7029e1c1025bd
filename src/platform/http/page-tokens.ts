import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../../store';
import type { Clock } from '../clock';

/**
 * How long a page's form may wait for its post: long enough for a person to read the page, short
 * enough that a page left open in a tab stops working the same day.
 */
export const PAGE_TOKEN_LIFETIME_MS = 30 * 60 * 1000;

/**
 * Per-page tokens: an HMAC of what the page's form is bound to (its action and any value it must
 * post back unchanged) and of its expiry on the clock, under a key made when the server starts. A
 * post whose token was not made for exactly these values (a forged form, another page's token, a
 * changed hidden field) is refused, and nothing is stored per page. A restart forgets the key, so
 * pages served before it must be reloaded.
 */
export class PageTokens {
  readonly #key: Buffer;
  readonly #clock: Clock;

  /**
   * `shared`: a secret every node serving the store holds (the store's own), so that a page
   * served by one node posts to another (architecture.md, Several nodes); else one of its own.
   */
  constructor(clock: Clock, shared?: string) {
    this.#clock = clock;
    this.#key =
      shared === undefined
        ? randomBytes(32)
        : createHmac('sha256', shared).update('svc page tokens').digest();
  }

  issue(binding: readonly string[]): string {
    const expires = this.#clock.nowMs() + PAGE_TOKEN_LIFETIME_MS;
    return `${expires}.${this.#mac(binding, expires)}`;
  }

  /** Whether `token` was made by this server for `binding` and has not expired. */
  verify(binding: readonly string[], token: string | undefined): boolean {
    const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
    if (!match?.[1] || !match[2]) {
      return false;
    }
    const expires = Number(match[1]);
    if (this.#clock.nowMs() > expires) {
      return false;
    }
    const want = Buffer.from(this.#mac(binding, expires));
    const got = Buffer.from(match[2]);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  #mac(binding: readonly string[], expires: number): string {
    // JSON of an array: no value can spill into the next one, whatever characters it holds.
    const text = JSON.stringify([...binding, expires]);
    return createHmac('sha256', this.#key).update(text).digest('base64url');
  }
}

/** With several nodes, the store's secret, which every node holds; else none (a key a start). */
export function pageSecret(rt: { store: Store }): string | undefined {
  return rt.store.cluster === undefined ? undefined : rt.store.global.get('meta', 'store')?.secret;
}
