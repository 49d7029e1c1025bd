import { Clock } from './clock';

/**
 * The server's clock and each workspace's (decisions.md, Clock). A workspace's clock runs with the
 * server's, ahead of it by the workspace's own offset: moving the server's moves every workspace's
 * with it; moving a workspace's moves its offset alone. A new workspace's offset is 0, so it starts
 * at the server's now. One Clock object a workspace, made when first asked for.
 */
export class Clocks {
  readonly server: Clock;
  readonly #of = new Map<string, Clock>();
  readonly #offsetOf: (wsId: string) => number;

  /** `offsetOf`: a workspace's offset as its record keeps it (0 for one without). */
  constructor(server: Clock, offsetOf: (wsId: string) => number) {
    this.server = server;
    this.#offsetOf = offsetOf;
  }

  /** The clock of workspace `wsId`. */
  of(wsId: string): Clock {
    let clock = this.#of.get(wsId);
    if (clock === undefined) {
      clock = new Clock(this.#offsetOf(wsId), () => this.server.nowMs());
      this.#of.set(wsId, clock);
    }
    return clock;
  }

  /** How far workspace `wsId`'s clock is ahead of the server's, in ms. */
  offset(wsId: string): number {
    return this.#of.get(wsId)?.offsetMs ?? this.#offsetOf(wsId);
  }

  /** The record now says `offsetMs` (a restore, a new workspace, another node's move). */
  set(wsId: string, offsetMs: number): void {
    this.#of.get(wsId)?.setOffset(offsetMs);
  }

  /** A workspace deleted. */
  forget(wsId: string): void {
    this.#of.delete(wsId);
  }
}
