import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { ErrorCode } from '../errors';

// decisions.md, Faults: faults injected through /__admin/faults, kept in memory (a restart clears
// them), matched against /v1 calls or svc's own outgoing deliveries.

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

export class Faults {
  readonly #clock: Clock;
  readonly #faults = new Map<string, Fault>();
  /** Each fault's generator state, advanced one draw per matching call. */
  readonly #draws = new Map<string, number>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  add(input: NewFault): Fault {
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
    this.#faults.set(id, fault);
    this.#draws.set(id, seed);
    return { ...fault };
  }

  /**
   * Puts back a fault as another server had it (a support bundle): same id, seed and count of
   * firings, so a request log that names it still does. Its draws start again from the seed.
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

  delete(id: string): boolean {
    this.#draws.delete(id);
    return this.#faults.delete(id);
  }

  clear(): void {
    this.#faults.clear();
    this.#draws.clear();
  }

  /**
   * A workspace deleted: the faults that match it, or one of its keys (`keyIds`), go with it; a
   * fault matching every workspace stays.
   */
  forgetWorkspace(wsId: string, keyIds: ReadonlySet<string>): void {
    for (const f of [...this.#faults.values()]) {
      const { workspace_id, key_id } = f.match;
      if (
        (workspace_id !== undefined && sameId(workspace_id, wsId)) ||
        (key_id !== undefined && keyIds.has(key_id.toLowerCase()))
      ) {
        this.delete(f.id);
      }
    }
  }

  /** The fault a /v1 call gets, counted as fired; undefined when none fires. */
  forCall(call: CallFacts): Fault | undefined {
    return this.#fire((m) => matchesCall(m, call));
  }

  /** The fault an outgoing delivery to `url` gets, counted as fired. */
  forDelivery(url: string, workspaceId: string): Fault | undefined {
    return this.#fire((m) => matchesDelivery(m, url, workspaceId));
  }

  // decisions.md, Faults: the oldest active fault that matches and wins its draw fires.
  #fire(matches: (m: FaultMatch) => boolean): Fault | undefined {
    for (const f of this.#faults.values()) {
      if (f.state !== 'active' || !matches(f.match)) {
        continue;
      }
      if (f.probability < 1) {
        const draw = nextDraw(this.#draws.get(f.id) ?? f.seed);
        this.#draws.set(f.id, draw.state);
        if (draw.value >= f.probability) {
          continue;
        }
      }
      f.fired += 1;
      if (f.remaining !== null) {
        f.remaining -= 1;
        if (f.remaining === 0) {
          f.state = 'spent';
        }
      }
      return { ...f };
    }
    return undefined;
  }
}
