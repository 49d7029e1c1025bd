import { randomBytes } from 'node:crypto';
import type { SharedFaults } from '../../store/pg/faults';
import { FAULTS } from '../../store/pg/faults';
import type { Versions } from '../../store/pg/versions';
import type { Clock } from '../clock';
import type { ErrorCode } from '../errors';

// decisions.md, Faults: faults injected through /__admin/faults, kept in memory (a restart clears
// them), matched against /v1 calls or svc's own outgoing deliveries. On PostgreSQL, they are the
// list every node serving the schema shares (store/pg/faults.ts), cleared when a node starts
// with no other serving, as one server's memory is by its restart.

export interface FaultMatch {
  method?: string | undefined;
  path?: string | undefined;
  workspace_id?: string | undefined;
  key_id?: string | undefined;
  target?: string | undefined;
}

export interface FaultAction {
  status?: number | undefined;
  code?: ErrorCode | undefined;
  delay_ms?: number | undefined;
  drop?: true | undefined;
}

export interface Fault {
  id: string;
  object: 'fault';
  match: FaultMatch;
  action: FaultAction;
  /** How many times it may fire in all; null: no end. */
  times: number | null;
  /** Firings left; null: no end. 0: spent (kept in the list, matches nothing). */
  remaining: number | null;
  probability: number;
  seed: number;
  /** How many times it fired. */
  fired: number;
  state: 'active' | 'spent';
  created_at: string;
}

export type NewFault = Pick<Fault, 'match' | 'action'> & {
  times?: number | undefined;
  probability?: number | undefined;
  seed?: number | undefined;
};

/** What a call is matched on. */
export interface CallFacts {
  method: string;
  path: string;
  workspaceId: string;
  keyId: string;
}

/** decisions.md, Faults: a seed made from the id (FNV-1a), so the id alone repeats the run. */
export function seedOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function nextDraw(state: number): { state: number; value: number } {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { state: next, value: ((t ^ (t >>> 14)) >>> 0) / 4294967296 };
}

/** A path as given, with or without `/v1`: the /v1 path it is a prefix of. */
export const v1Path = (path: string): string =>
  path === '/v1' || path.startsWith('/v1/') ? path : `/v1${path.startsWith('/') ? '' : '/'}${path}`;

/** Ids are UUIDs, written in any case (README, control API). */
const sameId = (want: string | undefined, id: string) =>
  want === undefined || want.toLowerCase() === id.toLowerCase();

/** A method as a call asks it: HEAD is served as GET, so a GET fault takes HEAD too. */
function sameMethod(want: string | undefined, method: string): boolean {
  if (want === undefined) {
    return true;
  }
  const asked = method.toUpperCase();
  const wanted = want.toUpperCase();
  return wanted === asked || (wanted === 'GET' && asked === 'HEAD');
}

function matchesCall(m: FaultMatch, call: CallFacts): boolean {
  return (
    m.target === undefined &&
    sameMethod(m.method, call.method) &&
    (m.path === undefined || call.path.startsWith(v1Path(m.path))) &&
    sameId(m.workspace_id, call.workspaceId) &&
    sameId(m.key_id, call.keyId)
  );
}

function matchesDelivery(m: FaultMatch, url: string, workspaceId: string): boolean {
  return m.target !== undefined && url.startsWith(m.target) && sameId(m.workspace_id, workspaceId);
}

/**
 * One more call offered to fault `f` whose draws stand at `draw`: whether it fires (the oldest
 * active fault that matches and wins its draw fires), and the fault and draws after it.
 */
function step(f: Fault, draw: number): { fault: Fault; draw: number; fired: boolean } {
  let next = draw;
  if (f.probability < 1) {
    const drawn = nextDraw(draw);
    next = drawn.state;
    if (drawn.value >= f.probability) {
      return { fault: f, draw: next, fired: false };
    }
  }
  const remaining = f.remaining === null ? null : f.remaining - 1;
  const fault: Fault = {
    ...f,
    fired: f.fired + 1,
    remaining,
    state: remaining === 0 ? 'spent' : f.state,
  };
  return { fault, draw: next, fired: true };
}

export class Faults {
  readonly #clock: Clock;
  readonly #faults = new Map<string, Fault>();
  /** Each fault's generator state, advanced one draw per matching call (on one node). */
  readonly #draws = new Map<string, number>();
  /** Several nodes: the list they share, which this one's is a copy of (decisions.md). */
  #shared: { faults: SharedFaults; fresh: () => Promise<void> } | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * Several nodes serve the schema: the faults are `shared`'s, and this node's copy is read again
   * whenever a check of `versions` finds them changed (every request's check asks).
   */
  share(shared: SharedFaults, versions: Versions): void {
    this.#shared = {
      faults: shared,
      fresh: async () => {
        await versions.of([]);
        await versions.catchUp();
      },
    };
    versions.follow(FAULTS, async () => {
      const { version, faults } = await shared.read();
      this.#faults.clear();
      for (const { fault } of faults) {
        const f = fault as Fault;
        this.#faults.set(f.id, f);
      }
      return version;
    });
  }

  async add(input: NewFault): Promise<Fault> {
    const id = `flt_${randomBytes(8).toString('hex')}`;
    const seed = input.seed ?? seedOf(id);
    const fault: Fault = {
      id,
      object: 'fault',
      match: input.match,
      action: input.action,
      times: input.times ?? null,
      remaining: input.times ?? null,
      probability: input.probability ?? 1,
      seed,
      fired: 0,
      state: 'active',
      created_at: this.#clock.iso(),
    };
    await this.#shared?.faults.add(id, fault, seed);
    this.#faults.set(id, fault);
    this.#draws.set(id, seed);
    return { ...fault };
  }

  /**
   * Puts back a fault as another server had it (a support bundle, served by one node): same id,
   * seed and count of firings, so a request log that names it still does. Its draws start again
   * from the seed.
   */
  restore(fault: Fault): Fault {
    const kept: Fault = { ...fault, state: fault.remaining === 0 ? 'spent' : 'active' };
    this.#faults.set(kept.id, kept);
    this.#draws.set(kept.id, kept.seed);
    return { ...kept };
  }

  /** Whether any fault may still fire: when none, a call pays nothing for the feature. */
  get active(): boolean {
    for (const f of this.#faults.values()) {
      if (f.state === 'active') {
        return true;
      }
    }
    return false;
  }

  list(): Fault[] {
    return [...this.#faults.values()].map((f) => ({ ...f }));
  }

  /** Every fault, or (`wsId` given) those limited to that workspace: what its control token sees. */
  listFor(wsId: string | undefined): Fault[] {
    const all = this.list();
    return wsId === undefined
      ? all
      : all.filter((f) => f.match.workspace_id?.toLowerCase() === wsId.toLowerCase());
  }

  get(id: string): Fault | undefined {
    const f = this.#faults.get(id);
    return f && { ...f };
  }

  /** Deletes the faults of `ids`: how many there were. */
  async delete(...ids: string[]): Promise<number> {
    const shared = await this.#shared?.faults.remove(ids);
    let deleted = 0;
    for (const id of ids) {
      this.#draws.delete(id);
      deleted += this.#faults.delete(id) ? 1 : 0;
    }
    return shared ?? deleted;
  }

  /** Deletes every fault: how many there were. */
  async clear(): Promise<number> {
    const shared = await this.#shared?.faults.remove();
    const deleted = this.#faults.size;
    this.#faults.clear();
    this.#draws.clear();
    return shared ?? deleted;
  }

  /**
   * A workspace deleted: the faults that match it, or one of its keys (`keyIds`), go with it; a
   * fault matching every workspace stays.
   */
  async forgetWorkspace(wsId: string, keyIds: ReadonlySet<string>): Promise<void> {
    const gone = [...this.#faults.values()].filter(({ match: { workspace_id, key_id } }) => {
      return (
        (workspace_id !== undefined && sameId(workspace_id, wsId)) ||
        (key_id !== undefined && keyIds.has(key_id.toLowerCase()))
      );
    });
    if (gone.length > 0) {
      await this.delete(...gone.map((f) => f.id));
    }
  }

  /** The fault a /v1 call gets, counted as fired; undefined when none fires. */
  forCall(call: CallFacts): Promise<Fault | undefined> {
    return this.#fire((m) => matchesCall(m, call));
  }

  /** The fault an outgoing delivery to `url` gets, counted as fired. */
  async forDelivery(url: string, workspaceId: string): Promise<Fault | undefined> {
    // A send asks no version of its own: the faults are read as they stand first.
    await this.#shared?.fresh();
    return this.#fire((m) => matchesDelivery(m, url, workspaceId));
  }

  // decisions.md, Faults: the oldest active fault that matches and wins its draw fires; with
  // several nodes, counted in the shared list, the draws over every node's calls.
  async #fire(matches: (m: FaultMatch) => boolean): Promise<Fault | undefined> {
    for (const f of [...this.#faults.values()]) {
      if (f.state !== 'active' || !matches(f.match)) {
        continue;
      }
      const fired = this.#shared ? await this.#fireShared(f.id) : this.#fireHere(f);
      if (fired !== undefined) {
        // Deleted meanwhile (another node, during the await), it stays deleted here.
        if (this.#faults.has(fired.id)) {
          this.#faults.set(fired.id, fired);
        }
        return { ...fired };
      }
    }
    return undefined;
  }

  #fireHere(f: Fault): Fault | undefined {
    const after = step(f, this.#draws.get(f.id) ?? f.seed);
    this.#draws.set(f.id, after.draw);
    this.#faults.set(f.id, after.fault);
    return after.fired ? after.fault : undefined;
  }

  #fireShared(id: string): Promise<Fault | undefined> {
    return (
      this.#shared?.faults.fire<Fault | undefined>(id, (now) => {
        const f = now?.fault as Fault | undefined;
        if (now === undefined || f === undefined || f.state !== 'active') {
          return undefined;
        }
        const after = step(f, now.draw);
        return {
          after: { fault: after.fault, draw: after.draw },
          fired: after.fired ? after.fault : undefined,
          shown: after.fired,
        };
      }) ?? Promise.resolve(undefined)
    );
  }
}
