import { positionOf } from '../../admin/paging';
import { deliveryLog } from '../../admin/webhooks-service';
import type { Attempt, Delivery } from '../../deliveries/records';
import { ApiError } from '../../platform/errors';
import type { PageTokens } from '../../platform/http/page-tokens';
import type { Runtime } from '../../platform/runtime';
import { ActionForm, when } from './parts';

// A subscription's delivery log on its page: a page of deliveries, newest first, each with every
// attempt (status, duration, the answer's start and the signature sent), and the link to older.

const DELIVERIES = 25;

const STATE_BADGE: Record<Delivery['state'], string> = {
  pending: '',
  retrying: 'warn',
  succeeded: 'ok',
  failed: 'bad',
  cancelled: '',
};

export interface LogPage {
  items: Delivery[];
  /** The next page's address; undefined on the last page. */
  older: string | undefined;
}

/** The page of `webhookId`'s log `cursor` asks for; undefined when svc holds no such log. */
export function deliveryLogPage(
  rt: Runtime,
  webhookId: string,
  cursor: string | undefined,
): LogPage | undefined {
  const scope = `inspector:deliveries:${webhookId}`;
  let page: { items: Delivery[]; hasMore: boolean };
  try {
    const after = cursor ? rt.cursors.decode(scope, cursor) : undefined;
    page = deliveryLog(rt, webhookId, after, DELIVERIES);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') {
      return undefined;
    }
    throw err;
  }
  const last = page.items.at(-1);
  const older =
    page.hasMore && last
      ? `/inspector/webhooks/${webhookId}?cursor=${encodeURIComponent(rt.cursors.encode(scope, positionOf(last)))}`
      : undefined;
  return { items: page.items, older };
}

/** The log's deliveries; with `tokens` (the subscription is still there) each may be resent. */
export function DeliveryLog({ log, tokens }: { log: LogPage; tokens: PageTokens | undefined }) {
  return (
    <>
      {log.items.length === 0 ? <p class="muted">Nothing delivered yet.</p> : null}
      {log.items.map((d) => (
        <DeliveryCard d={d} tokens={tokens} />
      ))}
      {log.older ? (
        <p>
          <a href={log.older}>Older deliveries</a>
        </p>
      ) : null}
    </>
  );
}

function DeliveryCard({ d, tokens }: { d: Delivery; tokens: PageTokens | undefined }) {
  return (
    <section class="card delivery">
      <h3>
        <span class="mono">{d.event}</span>{' '}
        <span class={`badge ${STATE_BADGE[d.state]}`}>{d.state}</span>{' '}
        {d.kind === 'event' ? null : <span class="badge">{d.kind}</span>}
      </h3>
      <dl class="facts">
        <dt>Delivery</dt>
        <dd class="mono">{d.id}</dd>
        <dt>Event id</dt>
        <dd class="mono">{d.event_id}</dd>
        <dt>Created</dt>
        <dd>{when(d.created_at)}</dd>
        {d.next_attempt_at ? (
          <>
            <dt>Next attempt</dt>
            <dd>{when(d.next_attempt_at)}</dd>
          </>
        ) : null}
        {d.resend_of ? (
          <>
            <dt>Resend of</dt>
            <dd class="mono">{d.resend_of}</dd>
          </>
        ) : null}
      </dl>
      <AttemptTable attempts={d.attempts} />
      {tokens ? (
        <ActionForm
          action={`/inspector/deliveries/${d.id}/resend`}
          token={tokens.issue(['delivery.resend', d.id])}
          label="Resend"
        />
      ) : null}
    </section>
  );
}

function AttemptTable({ attempts }: { attempts: Attempt[] }) {
  return (
    <table class="attempts">
      <thead>
        <tr>
          <th>Attempt</th>
          <th>At</th>
          <th>Status</th>
          <th>Duration</th>
          <th>Response</th>
          <th>X-Service-Signature</th>
        </tr>
      </thead>
      <tbody>
        <AttemptRows attempts={attempts} />
      </tbody>
    </table>
  );
}

function AttemptRows({ attempts }: { attempts: Attempt[] }) {
  if (attempts.length === 0) {
    return (
      <tr>
        <td colspan={6} class="muted">
          No attempt yet.
        </td>
      </tr>
    );
  }
  return (
    <>
      {attempts.map((a) => (
        <tr>
          <td>{`#${a.n}`}</td>
          <td>{when(a.at)}</td>
          <td>
            <AttemptStatus a={a} />
          </td>
          <td class="money">{`${a.duration_ms} ms`}</td>
          <td class="mono snippet">{a.response_snippet ?? ''}</td>
          <td class="mono signature">
            {a.signature ?? 'not kept (nothing sent, or an older log)'}
          </td>
        </tr>
      ))}
    </>
  );
}

function AttemptStatus({ a }: { a: Attempt }) {
  return (
    <>
      {a.status_code === null ? (
        <span class="badge bad">no answer</span>
      ) : (
        <span class={`badge ${a.status_code >= 200 && a.status_code < 300 ? 'ok' : 'bad'}`}>
          {String(a.status_code)}
        </span>
      )}
      {a.error ? <div class="muted">{a.error}</div> : null}
      {a.fault ? (
        <div class="mono">
          fault <a href="/inspector/faults">{a.fault}</a>
        </div>
      ) : null}
    </>
  );
}
