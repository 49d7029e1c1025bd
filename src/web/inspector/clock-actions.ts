import type { Context } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { type ClockMoves, instantOf, type Move } from './clock';
import { action, type Done, field, type Inspector } from './forms';
import { when } from './parts';

// The clock forms: advance an hour or a day, or move to an instant, on the clock page (POST
// /__admin/clock, the server's clock and every workspace's with it) or a workspace's page (POST
// /__admin/workspaces/{id}/clock, its clock alone); what fell due on the way is kept for the page.

const STEPS = { hour: 3600, day: 24 * 3600 } as const;

/** The workspace a form moves the clock of; none on the clock page. */
const workspaceOf = (c: Context<AppEnv>): string | undefined => c.req.param('id')?.toLowerCase();

const back = (c: Context<AppEnv>) => {
  const wsId = workspaceOf(c);
  return wsId === undefined ? '/inspector/clock' : `/inspector/workspaces/${wsId}`;
};

/** What a form's token binds to: the move, and the workspace it moves. */
export const clockBinding = (wsId: string | undefined, move: string): string[] =>
  wsId === undefined ? ['clock', move] : ['clock', wsId, move];

const moved = (m: Move, wsId: string | undefined): Done => ({
  move: m,
  text: `${wsId === undefined ? 'The clock' : "The workspace's clock"} moved from ${when(m.from)} to ${when(m.to)} UTC; ${m.total} change${m.total === 1 ? '' : 's'} fell due.`,
});

export const advanceClock = (ins: Inspector, moves: ClockMoves) =>
  action(
    ins,
    (c) => clockBinding(workspaceOf(c), c.req.param('by') ?? ''),
    back,
    async (c) => {
      const by = STEPS[c.req.param('by') === 'day' ? 'day' : 'hour'];
      const wsId = workspaceOf(c);
      return moved(await moves.move({ advance_seconds: by }, wsId), wsId);
    },
  );

export const setClock = (ins: Inspector, moves: ClockMoves) =>
  action(
    ins,
    (c) => clockBinding(workspaceOf(c), 'set'),
    back,
    async (c, form) => {
      const wsId = workspaceOf(c);
      return moved(await moves.move({ set: instantOf(field(form, 'at') ?? '') }, wsId), wsId);
    },
  );
