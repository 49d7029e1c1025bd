import type { Handler } from 'hono';
import { EVENTS } from '../../events/catalogue';
import type { AppEnv } from '../../platform/app-env';
import { WILDCARD } from '../../platform/family';
import { holderOf } from '../../platform/holder-of';
import type { PageTokens } from '../../platform/http/page-tokens';
import type { Runtime } from '../../platform/runtime';
import { validSecrets, type Webhook } from '../../resources';
import { notFoundPage } from '../ui/not-found';
import { DeliveryLog, deliveryLogPage } from './delivery-log';
import { type Inspector, idParam } from './forms';
import { ActionForm, InspectorPage, when } from './parts';

// spec, Receiver responses: GET /inspector/webhooks/{id}, one subscription as the workspace
// settings show it (its state, the forms to re-enable it, rotate its secret and send a test) and
// its delivery log with every attempt. A deleted subscription's log is kept and shown alone.

/** A subscription still there, with what its page says beside the record. */
interface Subscription {
  hook: Webhook;
  workspaceId: string;
  workspaceName: string;
  /** How many of its secrets sign a delivery now (two while a rotation overlaps). */
  signing: number;
}

function subscriptionOf(rt: Runtime, id: string): Subscription | undefined {
  const found = holderOf(rt.store, 'webhooks', id);
  if (!found) {
    return undefined;
  }
  const { workspaceId, record: hook } = found;
  return {
    hook,
    workspaceId,
    workspaceName: rt.store.global.get('workspaces', workspaceId)?.name ?? workspaceId,
    signing: validSecrets(hook, rt.clock.nowMs()).length,
  };
}

export const webhookPage =
  (ins: Inspector): Handler<AppEnv> =>
  (c) => {
    const { rt, tokens } = ins;
    const id = idParam(c);
    const sub = subscriptionOf(rt, id);
    const log = deliveryLogPage(rt, id, c.req.query('cursor'));
    if (!log) {
      return notFoundPage(c, 'webhook subscription');
    }
    const h = sub?.hook;
    return c.html(
      <InspectorPage
        scope={c.get('adminScope')}
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
        {sub ? (
          <>
            <SubscriptionFacts sub={sub} tokens={tokens} />
            <TestCard hook={sub.hook} tokens={tokens} />
          </>
        ) : (
          <p class="notice">This subscription was deleted; its delivery log is kept.</p>
        )}

        <h2>Deliveries</h2>
        <DeliveryLog log={log} tokens={h ? tokens : undefined} />
      </InspectorPage>,
    );
  };

function SubscriptionFacts({ sub, tokens }: { sub: Subscription; tokens: PageTokens }) {
  const { hook: h } = sub;
  return (
    <dl class="facts">
      <dt>Target</dt>
      <dd class="mono">{h.target_url}</dd>
      <dt>Id</dt>
      <dd class="mono">{h.id}</dd>
      <dt>Workspace</dt>
      <dd>
        <a href={`/inspector/webhooks?workspace_id=${sub.workspaceId}`}>{sub.workspaceName}</a>
      </dd>
      <dt>Description</dt>
      <dd>{h.description ?? '—'}</dd>
      <dt>Filters</dt>
      <dd class="mono">{Object.keys(h.filters).length === 0 ? '—' : JSON.stringify(h.filters)}</dd>
      <dt>State</dt>
      <dd>
        <StateOf hook={h} tokens={tokens} />
      </dd>
      <dt>Failures in a row</dt>
      <dd>{String(h.consecutive_failures)}</dd>
      <dt>Secrets signing now</dt>
      <dd>
        {String(sub.signing)}{' '}
        <ActionForm
          action={`/inspector/webhooks/${h.id}/rotate`}
          token={tokens.issue(['webhook.rotate', h.id])}
          label="Rotate secret"
          danger
        />
      </dd>
    </dl>
  );
}

/** Active, or off since when with the form that switches it back on. */
function StateOf({ hook, tokens }: { hook: Webhook; tokens: PageTokens }) {
  if (hook.disabled_at === null) {
    return <span class="badge ok">active</span>;
  }
  return (
    <>
      <span class="badge bad">off since {when(hook.disabled_at)}</span>{' '}
      <ActionForm
        action={`/inspector/webhooks/${hook.id}/enable`}
        token={tokens.issue(['webhook.enable', hook.id])}
        label="Re-enable"
      />
    </>
  );
}

/** The form that sends a signed test; a `*` subscription's names the event to send. */
function TestCard({ hook, tokens }: { hook: Webhook; tokens: PageTokens }) {
  const events = hook.event === WILDCARD ? EVENTS.map((e) => e.event) : [];
  return (
    <div class="card">
      <ActionForm
        action={`/inspector/webhooks/${hook.id}/test`}
        token={tokens.issue(['webhook.test', hook.id])}
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
        A signed delivery with <code>event_test: true</code>, of a recent record, sent once now.
      </p>
    </div>
  );
}
