import type { Handler } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import type { PageTokens } from '../../platform/http/page-tokens';
import type { ClockMoves, Move, Moved } from './clock';
import { clockBinding } from './clock-actions';
import type { Inspector } from './forms';
import { ActionForm, InspectorPage, when } from './parts';

// GET /inspector/clock: the time svc keeps, the forms that move it (clock-actions.ts), and what
// fell due in the last move made from here.

export const clockPage =
  (ins: Inspector, moves: ClockMoves): Handler<AppEnv> =>
  (c) => {
    const { rt, tokens } = ins;
    const now = rt.clock.iso();
    const flash = ins.flash.take(c.req.query('flash'));
    const last = moves.last(undefined, flash?.move);
    return c.html(
      <InspectorPage scope={c.get('adminScope')} title="Clock" section="clock" flash={flash}>
        <h1>Clock</h1>
        <ClockFacts now={now} waiting={rt.scheduler.size} />
        <p class="muted">
          The clock only moves forward. Moving it moves every workspace's clock with it, and runs
          everything that falls due on the way, in time order: retries, coalesced updates, overdue
          invoices, purges. A workspace's page moves its clock alone.
        </p>
        <MoveForms now={now} tokens={tokens} wsId={undefined} />

        <h2>What fell due in the last move</h2>
        {last === undefined ? (
          <p class="muted">The clock has not been moved from this page since svc started.</p>
        ) : (
          <LastMove last={last} />
        )}
      </InspectorPage>,
    );
  };

function ClockFacts({ now, waiting }: { now: string; waiting: number }) {
  return (
    <dl class="facts">
      <dt>Now, for svc</dt>
      <dd class="mono" id="now">
        {now}
      </dd>
      <dt>Work waiting</dt>
      <dd>{`${waiting} scheduled task${waiting === 1 ? '' : 's'}`}</dd>
    </dl>
  );
}

/** The forms that move the server's clock, or workspace `wsId`'s. */
export function MoveForms(props: { now: string; tokens: PageTokens; wsId: string | undefined }) {
  const { now, tokens, wsId } = props;
  const base = wsId === undefined ? '/inspector/clock' : `/inspector/workspaces/${wsId}/clock`;
  return (
    <>
      <div class="card">
        <ActionForm
          action={`${base}/advance/hour`}
          token={tokens.issue(clockBinding(wsId, 'hour'))}
          label="Advance an hour"
        />{' '}
        <ActionForm
          action={`${base}/advance/day`}
          token={tokens.issue(clockBinding(wsId, 'day'))}
          label="Advance a day"
        />
      </div>
      <div class="card">
        <ActionForm
          action={`${base}/set`}
          token={tokens.issue(clockBinding(wsId, 'set'))}
          label="Move"
        >
          <label class="inline">
            To (UTC){' '}
            <input type="datetime-local" name="at" step={1} value={now.slice(0, 19)} required />
          </label>{' '}
        </ActionForm>
      </div>
    </>
  );
}

export function LastMove({ last }: { last: Move }) {
  return (
    <>
      <p>
        {`${when(last.from)} → ${when(last.to)} UTC: ${last.total} change${last.total === 1 ? '' : 's'}`}
        {last.counts.length > 0 ? ': ' : '.'}
        {last.counts.map(([label, n]) => `${label} ${n}`).join(' · ')}
      </p>
      {last.rows.length > 0 ? <MovedTable rows={last.rows} /> : null}
      {last.total > last.rows.length ? (
        <p class="muted">{`The first ${last.rows.length} are listed.`}</p>
      ) : null}
    </>
  );
}

function MovedTable({ rows }: { rows: Moved[] }) {
  return (
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
        {rows.map((r) => (
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
  );
}
