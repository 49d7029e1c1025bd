import { Hono } from 'hono';
import { ClockSchema } from '../../admin/schemas';
import type { AppEnv } from '../../platform/app-env';
import type { Runtime } from '../../runtime';
import { type Change, GLOBAL, type Rec } from '../../store';
import type { ControlApi } from './control';
import { action, field, type Inspector } from './forms';
import { ActionForm, InspectorPage, when } from './parts';

// The virtual clock (POST /__admin/clock: forward only, running what falls due on the way) and
// what fell due: every change the move made, as the store applied it.

/** Rows a move keeps to show; the counts above them cover every change. */
const MAX_ROWS = 300;
const STEPS = { hour: 3600, day: 24 * 3600 } as const;

interface Moved {
  what: string;
  workspace: string;
  coll: string;
  id: string;
  detail: string;
  href: string | undefined;
}

interface Move {
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
    if (change.scope === GLOBAL && change.coll === 'meta') {
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

/** A `datetime-local` value (no zone) read as UTC, as the page says; anything else as typed. */
export function instantOf(typed: string): string {
  const local = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?$/.exec(typed);
  return local ? `${local[1]}${local[2] ?? ':00'}Z` : typed;
}

export function clockRoutes(ins: Inspector, control: ControlApi) {
  const { rt, tokens } = ins;
  const recorder = new MoveRecorder(rt);
  let last: Move | undefined;

  const move = async (body: Record<string, unknown>) => {
    const from = rt.clock.iso();
    let to = from;
    const changes = await recorder.during(async () => {
      to = ClockSchema.parse(await control('POST', '/clock', body)).now;
    });
    last = summarise(rt, from, to, changes);
    return {
      text: `The clock moved from ${when(from)} to ${when(to)} UTC; ${last.total} change${last.total === 1 ? '' : 's'} fell due.`,
    };
  };

  const web = new Hono<AppEnv>();

  web.get('/inspector/clock', (c) => {
    const now = rt.clock.iso();
    return c.html(
      <InspectorPage title="Clock" section="clock" flash={ins.flash.take(c.req.query('flash'))}>
        <h1>Clock</h1>
        <dl class="facts">
          <dt>Now, for svc</dt>
          <dd class="mono" id="now">
            {now}
          </dd>
          <dt>Work waiting</dt>
          <dd>{`${rt.scheduler.size} scheduled task${rt.scheduler.size === 1 ? '' : 's'}`}</dd>
        </dl>
        <p class="muted">
          The clock only moves forward. Moving it runs everything that falls due on the way, in time
          order: retries, coalesced updates, overdue invoices, purges.
        </p>
        <div class="card">
          <ActionForm
            action="/inspector/clock/advance/hour"
            token={tokens.issue(['clock', 'hour'])}
            label="Advance an hour"
          />{' '}
          <ActionForm
            action="/inspector/clock/advance/day"
            token={tokens.issue(['clock', 'day'])}
            label="Advance a day"
          />
        </div>
        <div class="card">
          <ActionForm
            action="/inspector/clock/set"
            token={tokens.issue(['clock', 'set'])}
            label="Move"
          >
            <label class="inline">
              To (UTC){' '}
              <input type="datetime-local" name="at" step={1} value={now.slice(0, 19)} required />
            </label>{' '}
          </ActionForm>
        </div>

        <h2>What fell due in the last move</h2>
        {last === undefined ? (
          <p class="muted">The clock has not been moved from this page since svc started.</p>
        ) : (
          <>
            <p>
              {`${when(last.from)} → ${when(last.to)} UTC: ${last.total} change${last.total === 1 ? '' : 's'}`}
              {last.counts.length > 0 ? ': ' : '.'}
              {last.counts.map(([label, n]) => `${label} ${n}`).join(' · ')}
            </p>
            {last.rows.length > 0 ? (
              <table>
                <thead>
                  <tr>
                    <th>Workspace</th>
                    <th>Record</th>
                    <th>What</th>
                    <th>Detail</th>
                  </tr>
                </thead>
                <tbody>
                  {last.rows.map((r) => (
                    <tr>
                      <td>{r.workspace}</td>
                      <td class="mono">
                        {r.href ? <a href={r.href}>{`${r.coll} ${r.id}`}</a> : `${r.coll} ${r.id}`}
                      </td>
                      <td>{r.what}</td>
                      <td class="mono">{r.detail}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {last.total > last.rows.length ? (
              <p class="muted">{`The first ${last.rows.length} are listed.`}</p>
            ) : null}
          </>
        )}
      </InspectorPage>,
    );
  });

  web.post(
    '/inspector/clock/advance/:by{hour|day}',
    action(
      ins,
      (c) => ['clock', c.req.param('by') ?? ''],
      () => '/inspector/clock',
      (c) => move({ advance_seconds: STEPS[c.req.param('by') === 'day' ? 'day' : 'hour'] }),
    ),
  );

  web.post(
    '/inspector/clock/set',
    action(
      ins,
      () => ['clock', 'set'],
      () => '/inspector/clock',
      (_c, form) => move({ set: instantOf(field(form, 'at') ?? '') }),
    ),
  );

  return web;
}
