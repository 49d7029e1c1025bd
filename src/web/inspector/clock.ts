import { ClockSchema } from '../../admin/schemas';
import type { Workspace } from '../../platform/auth';
import type { Runtime } from '../../platform/runtime';
import { type Change, GLOBAL, type Rec } from '../../store';
import type { ControlApi } from './control';

// The virtual clocks (POST /__admin/clock, the server's and every workspace's with it; POST
// /__admin/workspaces/{id}/clock, one workspace's: forward only, running what falls due on the
// way) and what fell due: every change the move made, as the store applied it. Their pages are
// clock-page.tsx and the workspace page, their forms clock-actions.ts.

/** Rows a move keeps to show; the counts above them cover every change. */
const MAX_ROWS = 300;

export interface Moved {
  what: string;
  workspace: string;
  coll: string;
  id: string;
  detail: string;
  href: string | undefined;
}

export interface Move {
  from: string;
  to: string;
  total: number;
  counts: [string, number][];
  rows: Moved[];
}

const scalar = (v: unknown) =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v) ? JSON.stringify(v) : undefined;

/** What changed in a record, in a few words: its state-like fields, and what grew. */
function detailOf(change: Change): string {
  const { before, after } = change;
  const rec = (after ?? before) as Rec & Record<string, unknown>;
  if (!before || !after) {
    const event = typeof rec.event === 'string' ? rec.event : undefined;
    return event ?? '';
  }
  const parts: string[] = [];
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  for (const key of Object.keys(now)) {
    if (key === 'updated_at' || JSON.stringify(was[key]) === JSON.stringify(now[key])) {
      continue;
    }
    const a = scalar(was[key]);
    const b = scalar(now[key]);
    const list = Array.isArray(now[key]) ? (now[key] as unknown[]) : undefined;
    if (a !== undefined && b !== undefined) {
      parts.push(`${key}: ${a} → ${b}`);
    } else if (list && Array.isArray(was[key])) {
      parts.push(`${key}: ${(was[key] as unknown[]).length} → ${list.length}`);
    } else {
      parts.push(`${key} changed`);
    }
  }
  return parts.slice(0, 4).join('; ');
}

function hrefOf(change: Change): string | undefined {
  const rec = (change.after ?? change.before) as Record<string, unknown>;
  if (change.coll === 'deliveries' && typeof rec.webhook_id === 'string') {
    return `/inspector/webhooks/${rec.webhook_id}`;
  }
  if (change.coll === 'webhooks') {
    return `/inspector/webhooks/${change.id}`;
  }
  return undefined;
}

/**
 * Collects the changes the store applies while a move runs. One listener for the server's life
 * (the store has no way to remove one), doing nothing when no move runs.
 */
class MoveRecorder {
  #changes: Change[] | undefined;

  constructor(rt: Runtime) {
    rt.store.onApplied((changes) => {
      this.#changes?.push(...changes);
    });
  }

  async during(run: () => Promise<void>): Promise<Change[]> {
    const changes: Change[] = [];
    this.#changes = changes;
    try {
      await run();
    } finally {
      this.#changes = undefined;
    }
    return changes;
  }
}

function summarise(rt: Runtime, from: string, to: string, changes: Change[]): Move {
  const counts = new Map<string, number>();
  const rows: Moved[] = [];
  let total = 0;
  for (const change of changes) {
    // The clock's own offset is what moved, not what fell due.
    if (change.scope === GLOBAL && (change.coll === 'meta' || onlyClockMoved(change))) {
      continue;
    }
    total += 1;
    const what = !change.before ? 'created' : !change.after ? 'deleted' : 'updated';
    const label = `${change.coll} ${what}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
    if (rows.length < MAX_ROWS) {
      rows.push({
        what,
        workspace:
          change.scope === GLOBAL
            ? '(global)'
            : (rt.store.global.get('workspaces', change.scope)?.name ?? change.scope),
        coll: change.coll,
        id: change.id,
        detail: detailOf(change),
        href: hrefOf(change),
      });
    }
  }
  return { from, to, total, counts: [...counts], rows };
}

/** A workspace record whose clock's offset alone changed: the move itself. */
function onlyClockMoved(change: Change): boolean {
  if (change.coll !== 'workspaces' || !change.before || !change.after) {
    return false;
  }
  const { clock_offset_ms: _a, ...before } = change.before as Workspace;
  const { clock_offset_ms: _b, ...after } = change.after as Workspace;
  return JSON.stringify(before) === JSON.stringify(after);
}

/** The most workspaces whose last move the inspector keeps: one per team member's suite, say. */
const MAX_KEPT = 100;

/**
 * The moves the inspector's forms make, of the server's clock or of one workspace's, the last one
 * of each kept for its page to show.
 */
export class ClockMoves {
  readonly #rt: Runtime;
  readonly #control: ControlApi;
  readonly #recorder: MoveRecorder;
  #last: Move | undefined;
  readonly #lastOf = new Map<string, Move>();

  constructor(rt: Runtime, control: ControlApi) {
    this.#rt = rt;
    this.#control = control;
    this.#recorder = new MoveRecorder(rt);
  }

  /**
   * The last move of the server's clock (of workspace `wsId`'s) made here since svc started; or
   * `told`, one a form just made (on another node, with several), kept from now on as the last.
   */
  last(wsId?: string, told?: Move): Move | undefined {
    if (told !== undefined) {
      this.#keep(told, wsId);
    }
    return wsId === undefined ? this.#last : this.#lastOf.get(wsId);
  }

  /**
   * POST /__admin/clock (or /__admin/workspaces/{wsId}/clock) with `body`; a refused move throws
   * its ApiError and keeps the last.
   */
  async move(body: Record<string, unknown>, wsId?: string): Promise<Move> {
    const clock = wsId === undefined ? this.#rt.clock : this.#rt.clocks.of(wsId);
    const path = wsId === undefined ? '/clock' : `/workspaces/${wsId}/clock`;
    const from = clock.iso();
    let to = from;
    const changes = await this.#recorder.during(async () => {
      to = ClockSchema.parse(await this.#control('POST', path, body)).now;
    });
    const move = summarise(this.#rt, from, to, changes);
    this.#keep(move, wsId);
    return move;
  }

  #keep(move: Move, wsId: string | undefined): void {
    if (wsId === undefined) {
      this.#last = move;
    } else {
      this.#lastOf.delete(wsId);
      if (this.#lastOf.size >= MAX_KEPT) {
        this.#lastOf.delete(this.#lastOf.keys().next().value as string);
      }
      this.#lastOf.set(wsId, move);
    }
  }
}

/** A `datetime-local` value (no zone) read as UTC, as the page says; anything else as typed. */
export function instantOf(typed: string): string {
  const local = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?$/.exec(typed);
  return local ? `${local[1]}${local[2] ?? ':00'}Z` : typed;
}
