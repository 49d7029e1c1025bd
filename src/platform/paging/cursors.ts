import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Position } from '../../store';
import { ApiError } from '../errors';

// spec, Pagination 2: cursors are opaque, and one the service did not issue is 400. A cursor
// carries its position, the workspace and the list it belongs to, sealed with an HMAC under
// the data file's own secret: an altered, forged, foreign or other-list cursor fails the check.
const invalidCursor = () =>
  new ApiError(
    'invalid_request',
    'cursor was not issued for this list; pass back next_cursor exactly as received',
    'cursor',
  );

export class Cursors {
  readonly #secret: Buffer;

  constructor(secret: Buffer) {
    this.#secret = secret;
  }

  encode(scope: string, pos: Position): string {
    const payload = Buffer.from(JSON.stringify([pos.created_at, pos.id])).toString('base64url');
    return `${payload}.${this.#mac(scope, payload)}`;
  }

  decode(scope: string, token: string): Position {
    const [payload, mac, extra] = token.split('.');
    if (payload === undefined || mac === undefined || extra !== undefined) {
      throw invalidCursor();
    }
    const expected = Buffer.from(this.#mac(scope, payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalidCursor();
    }
    const [createdAt, id] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as [
      string,
      string,
    ];
    return { created_at: createdAt, id };
  }

  #mac(scope: string, payload: string): string {
    return createHmac('sha256', this.#secret)
      .update(`${scope}\u0000${payload}`)
      .digest('base64url')
      .slice(0, 22);
  }
}
