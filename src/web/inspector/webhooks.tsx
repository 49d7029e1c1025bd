import { type Context, Hono } from 'hono';
import { positionOf } from '../../admin/paging';
import {
  deliveryLog,
  enable,
  listAllWebhooks,
  notifications,
  resend,
  rotateSecret,
  sendTest,
} from '../../admin/webhooks-service';
import type { Attempt, Delivery } from '../../deliveries/records';
import { EVENTS } from '../../events/catalogue';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import { WILDCARD } from '../../platform/family';
import { holderOf } from '../../platform/holder-of';
import { validSecrets } from '../../resources/webhooks/records';
import type { Position } from '../../store';
import { notFoundPage } from '../ui/not-found';
import { action, field, type Inspector, idParam } from './forms';
import { ActionForm, InspectorPage, when } from './parts';

// spec, Receiver responses: what the workspace settings let owners and admins do with a
// subscription (its delivery log with every attempt, resend, a signed test, rotating the
// secret, re-enabling), and what the owners were told. Each action is the control API's service.

const SUBSCRIPTIONS = 100;
const DELIVERIES = 25;
const NOTIFICATIONS = 50;

const STATE_BADGE: Record<Delivery['state'], string> = {
  pending: '',
  retrying: 'warn',
  succeeded: 'ok',
  failed: 'bad',
  cancelled: '',
};

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

export function webhookRoutes(ins: Inspector) {
  const { rt, tokens } = ins;
  const web = new Hono<AppEnv>();

  web.get('/inspector/webhooks', (c) => {
    const wanted = c.req.query('workspace_id')?.trim().toLowerCase() || undefined;
    const hooks = listAllWebhooks(rt, wanted, undefined, SUBSCRIPTIONS);
    const told = notifications(rt, wanted, undefined, NOTIFICATIONS);
    const workspaces = [...rt.store.global.values('workspaces')];
    const nameOf = (id: string) => rt.store.global.get('workspaces', id)?.name ?? id;
    return c.html(
      <InspectorPage
        title="Webhooks"
        section="webhooks"
        flash={ins.flash.take(c.req.query('flash'))}
      >
        <h1>Webhooks</h1>
        <form method="get" action="/inspector/webhooks" class="card">
          <label class="inline">
            Workspace{' '}
            <select name="workspace_id">
              <option value="">all</option>
              {workspaces.map((ws) => (
                <option value={ws.id} selected={ws.id === wanted}>
                  {ws.name}
                </option>
              ))}
            </select>
          </label>{' '}
          <button type="submit">Show</button>
        </form>

        <h2>Subscriptions</h2>
        {hooks.items.length === 0 ? (
          <p class="muted">No subscription{wanted ? ' in this workspace' : ''}.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Event</th>
                <th>Target</th>
                <th>Workspace</th>
                <th>State</th>
                <th>Failures in a row</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {hooks.items.map(({ workspaceId, record: h }) => (
                <tr>
                  <td>
                    <a href={`/inspector/webhooks/${h.id}`}>{h.event}</a>
                  </td>
                  <td class="mono">{h.target_url}</td>
                  <td>
                    <a href={`/inspector/webhooks?workspace_id=${workspaceId}`}>
                      {nameOf(workspaceId)}
                    </a>
                  </td>
                  <td>
                    {h.disabled_at === null ? (
                      <span class="badge ok">active</span>
                    ) : (
                      <span class="badge bad">off since {when(h.disabled_at)}</span>
                    )}
                  </td>
                  <td>{String(h.consecutive_failures)}</td>
                  <td>{when(h.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {hooks.hasMore ? (
          <p class="muted">
            The newest {String(SUBSCRIPTIONS)}: choose a workspace to see its own.
          </p>
        ) : null}

        <h2>Notifications to owners</h2>
        {told.items.length === 0 ? (
          <p class="muted">Nothing was sent to owners and admins.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Workspace</th>
                <th>What</th>
                <th>Subscription</th>
              </tr>
            </thead>
            <tbody>
              {told.items.map(({ workspaceId, record: n }) => (
                <tr>
                  <td>{when(n.created_at)}</td>
                  <td>{nameOf(workspaceId)}</td>
                  <td>{n.message}</td>
                  <td>
                    <a class="mono" href={`/inspector/webhooks/${n.webhook_id}`}>
                      {n.webhook_id}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </InspectorPage>,
    );
  });

  web.get('/inspector/webhooks/:id', (c) => {
    const id = idParam(c);
    const found = holderOf(rt.store, 'webhooks', id);
    let page: { items: Delivery[]; hasMore: boolean };
    let after: Position | undefined;
    const cursor = c.req.query('cursor');
    try {
      after = cursor ? rt.cursors.decode(`inspector:deliveries:${id}`, cursor) : undefined;
      page = deliveryLog(rt, id, after, DELIVERIES);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'not_found') {
        return notFoundPage(c, 'webhook subscription');
      }
      throw err;
    }
    const h = found?.record;
    const last = page.items.at(-1);
    const older =
      page.hasMore && last
        ? `/inspector/webhooks/${id}?cursor=${encodeURIComponent(rt.cursors.encode(`inspector:deliveries:${id}`, positionOf(last)))}`
        : undefined;
    const events = h?.event === WILDCARD ? EVENTS.map((e) => e.event) : [];
    return c.html(
      <InspectorPage
        title={h ? `Webhook ${h.event}` : 'Deleted webhook'}
        section="webhooks"
        flash={ins.flash.take(c.req.query('flash'))}
      >
        <h1>
          {h ? (
            <>
              Webhook <span class="mono">{h.event}</span>
            </>
          ) : (
            'A deleted subscription’s log'
          )}
        </h1>
        {h && found ? (
          <>
            <dl class="facts">
              <dt>Target</dt>
              <dd class="mono">{h.target_url}</dd>
              <dt>Id</dt>
              <dd class="mono">{h.id}</dd>
              <dt>Workspace</dt>
              <dd>
                <a href={`/inspector/webhooks?workspace_id=${found.workspaceId}`}>
                  {rt.store.global.get('workspaces', found.workspaceId)?.name ?? found.workspaceId}
                </a>
              </dd>
              <dt>Description</dt>
              <dd>{h.description ?? '—'}</dd>
              <dt>Filters</dt>
              <dd class="mono">
                {Object.keys(h.filters).length === 0 ? '—' : JSON.stringify(h.filters)}
              </dd>
              <dt>State</dt>
              <dd>
                {h.disabled_at === null ? (
                  <span class="badge ok">active</span>
                ) : (
                  <>
                    <span class="badge bad">off since {when(h.disabled_at)}</span>{' '}
                    <ActionForm
                      action={`/inspector/webhooks/${h.id}/enable`}
                      token={tokens.issue(['webhook.enable', h.id])}
                      label="Re-enable"
                    />
                  </>
                )}
              </dd>
              <dt>Failures in a row</dt>
              <dd>{String(h.consecutive_failures)}</dd>
              <dt>Secrets signing now</dt>
              <dd>
                {String(validSecrets(h, rt.clock.nowMs()).length)}{' '}
                <ActionForm
                  action={`/inspector/webhooks/${h.id}/rotate`}
                  token={tokens.issue(['webhook.rotate', h.id])}
                  label="Rotate secret"
                  danger
                />
              </dd>
            </dl>
            <div class="card">
              <ActionForm
                action={`/inspector/webhooks/${h.id}/test`}
                token={tokens.issue(['webhook.test', h.id])}
                label="Send a test"
              >
                {events.length > 0 ? (
                  <label class="inline">
                    Event{' '}
                    <select name="event">
                      {events.map((e) => (
                        <option value={e}>{e}</option>
                      ))}
                    </select>
                  </label>
                ) : null}{' '}
              </ActionForm>
              <p class="muted">
                A signed delivery with <code>event_test: true</code>, of a recent record, sent once
                now.
              </p>
            </div>
          </>
        ) : (
          <p class="notice">This subscription was deleted; its delivery log is kept.</p>
        )}

        <h2>Deliveries</h2>
        {page.items.length === 0 ? <p class="muted">Nothing delivered yet.</p> : null}
        {page.items.map((d) => (
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
                <AttemptRows attempts={d.attempts} />
              </tbody>
            </table>
            {h ? (
              <ActionForm
                action={`/inspector/deliveries/${d.id}/resend`}
                token={tokens.issue(['delivery.resend', d.id])}
                label="Resend"
              />
            ) : null}
          </section>
        ))}
        {older ? (
          <p>
            <a href={older}>Older deliveries</a>
          </p>
        ) : null}
      </InspectorPage>,
    );
  });

  const hookPage = (c: Context<AppEnv>) => `/inspector/webhooks/${idParam(c)}`;

  web.post(
    '/inspector/webhooks/:id/test',
    action(
      ins,
      (c) => ['webhook.test', idParam(c)],
      hookPage,
      async (c, form) => {
        const sent = await sendTest(rt, rt.deliveries, idParam(c), field(form, 'event'));
        return { text: `Test ${sent.event} sent: ${sent.state}.` };
      },
    ),
  );

  web.post(
    '/inspector/webhooks/:id/rotate',
    action(
      ins,
      (c) => ['webhook.rotate', idParam(c)],
      hookPage,
      (c) => {
        const { secret, previousExpiresAt, hooks } = rotateSecret(rt, idParam(c));
        const others = hooks.length > 1 ? ` (and the ${hooks.length - 1} made with it)` : '';
        return {
          text: `Secret rotated${others}; the old one keeps signing until ${when(previousExpiresAt)} UTC.`,
          shown: [{ label: 'New secret', value: secret }],
        };
      },
    ),
  );

  web.post(
    '/inspector/webhooks/:id/enable',
    action(
      ins,
      (c) => ['webhook.enable', idParam(c)],
      hookPage,
      (c) => {
        enable(rt, idParam(c));
        return { text: 'Subscription switched back on; its failure count is back to zero.' };
      },
    ),
  );

  web.post(
    '/inspector/deliveries/:id/resend',
    action(
      ins,
      (c) => ['delivery.resend', idParam(c)],
      (c) => {
        const d = holderOf(rt.store, 'deliveries', idParam(c));
        return d ? `/inspector/webhooks/${d.record.webhook_id}` : '/inspector/webhooks';
      },
      async (c) => {
        const sent = await resend(rt, rt.deliveries, idParam(c));
        const last = sent.attempts.at(-1);
        const answer = last?.status_code ?? last?.error ?? 'no attempt';
        return { text: `Resent ${sent.event}: ${sent.state} (${String(answer)}).` };
      },
    ),
  );

  return web;
}
