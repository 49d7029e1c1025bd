import { type ClockMoves, instantOf, type Move } from './clock';
import { action, type Done, field, type Inspector } from './forms';
import { when } from './parts';

// The clock page's forms: advance an hour or a day, or move to an instant. Each is a POST
// /__admin/clock; what fell due on the way is kept for the page.

const STEPS = { hour: 3600, day: 24 * 3600 } as const;

const backToClock = () => '/inspector/clock';

const moved = (m: Move): Done => ({
  text: `The clock moved from ${when(m.from)} to ${when(m.to)} UTC; ${m.total} change${m.total === 1 ? '' : 's'} fell due.`,
});

export const advanceClock = (ins: Inspector, moves: ClockMoves) =>
  action(
    ins,
    (c) => ['clock', c.req.param('by') ?? ''],
    backToClock,
    async (c) =>
      moved(
        await moves.move({ advance_seconds: STEPS[c.req.param('by') === 'day' ? 'day' : 'hour'] }),
      ),
  );

export const setClock = (ins: Inspector, moves: ClockMoves) =>
  action(
    ins,
    () => ['clock', 'set'],
    backToClock,
    async (_c, form) => moved(await moves.move({ set: instantOf(field(form, 'at') ?? '') })),
  );
