import type { Handler } from 'hono';
import { acrossHeld, listAllWebhooks, notifications } from '../../admin/webhooks-service';
import type { Notification } from '../../deliveries/records';
import type { AppEnv } from '../../platform/app-env';
import type { Workspace } from '../../platform/auth';
import type { Webhook } from '../../resources';
import { shownWorkspaces } from '../scope';
import type { Inspector } from './forms';
import { InspectorPage, when } from './parts';

// spec, Receiver responses: GET /inspector/webhooks, the subscriptions of every workspace (or of
// the one chosen) and what their owners and admins were told about them.

const SUBSCRIPTIONS = 100;
const NOTIFICATIONS = 50;

interface Held<T> {
  workspaceId: string;
  record: T;
}

type NameOf = (workspaceId: string) => string;

export const webhookListPage =
  (ins: Inspector): Handler<AppEnv> =>
  async (c) => {
    const { rt } = ins;
    const scope = c.get('adminScope');
    const wanted = scope ?? (c.req.query('workspace_id')?.trim().toLowerCase() || undefined);
    const [hooks, told] = await acrossHeld(
      rt,
      wanted,
      () =>
        [
          listAllWebhooks(rt, wanted, undefined, SUBSCRIPTIONS),
          notifications(rt, wanted, undefined, NOTIFICATIONS),
        ] as const,
    );
    const workspaces = shownWorkspaces(rt, scope);
    const nameOf = (id: string) => rt.store.global.get('workspaces', id)?.name ?? id;
    return c.html(
      <InspectorPage
        scope={c.get('adminScope')}
        title="Webhooks"
        section="webhooks"
        flash={ins.flash.take(c.req.query('flash'))}
      >
        <h1>Webhooks</h1>
        <WorkspaceChoice workspaces={workspaces} wanted={wanted} />

        <h2>Subscriptions</h2>
        {hooks.items.length === 0 ? (
          <p class="muted">No subscription{wanted ? ' in this workspace' : ''}.</p>
        ) : (
          <SubscriptionTable hooks={hooks.items} nameOf={nameOf} />
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
          <NotificationTable told={told.items} nameOf={nameOf} />
        )}
      </InspectorPage>,
    );
  };

function WorkspaceChoice(props: { workspaces: Workspace[]; wanted: string | undefined }) {
  return (
    <form method="get" action="/inspector/webhooks" class="card">
      <label class="inline">
        Workspace{' '}
        <select name="workspace_id">
          <option value="">all</option>
          {props.workspaces.map((ws) => (
            <option value={ws.id} selected={ws.id === props.wanted}>
              {ws.name}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="submit">Show</button>
    </form>
  );
}

function SubscriptionTable({ hooks, nameOf }: { hooks: Held<Webhook>[]; nameOf: NameOf }) {
  return (
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
        {hooks.map(({ workspaceId, record: h }) => (
          <tr>
            <td>
              <a href={`/inspector/webhooks/${h.id}`}>{h.event}</a>
            </td>
            <td class="mono">{h.target_url}</td>
            <td>
              <a href={`/inspector/webhooks?workspace_id=${workspaceId}`}>{nameOf(workspaceId)}</a>
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
  );
}

function NotificationTable({ told, nameOf }: { told: Held<Notification>[]; nameOf: NameOf }) {
  return (
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
        {told.map(({ workspaceId, record: n }) => (
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
  );
}
