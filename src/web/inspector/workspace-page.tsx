import type { Handler } from 'hono';
import { presentWorkspace } from '../../admin/workspaces-service';
import { listConnections } from '../../oauth/service';
import type { AppEnv } from '../../platform/app-env';
import type { Workspace } from '../../platform/auth';
import type { PageTokens } from '../../platform/http/page-tokens';
import { notFoundPage } from '../ui/not-found';
import type { ClockMoves, Move } from './clock';
import { LastMove, MoveForms } from './clock-page';
import { type Inspector, idParam } from './forms';
import { ActionForm, InspectorPage, when } from './parts';

// One workspace's settings, GET /inspector/workspaces/{id}: its facts and subscription, its clock
// with the forms that move it alone, its API keys with the forms that make and revoke them, and
// the apps connected to it.

type Key = ReturnType<typeof presentWorkspace>['keys'][number];
type Connection = ReturnType<typeof listConnections>[number];

export const workspacePage =
  (ins: Inspector, moves: ClockMoves): Handler<AppEnv> =>
  (c) => {
    const { rt, tokens } = ins;
    const ws = rt.store.global.get('workspaces', idParam(c));
    if (!ws) {
      return notFoundPage(c, 'workspace');
    }
    const view = presentWorkspace(rt, ws);
    const connections = listConnections(rt, ws.id);
    const flash = ins.flash.take(c.req.query('flash'));
    return c.html(
      <InspectorPage scope={c.get('adminScope')} title={ws.name} section="workspaces" flash={flash}>
        <h1>{ws.name}</h1>
        <WorkspaceFacts ws={ws} tokens={tokens} />

        <h2>Clock</h2>
        <WorkspaceClock ins={ins} ws={ws} last={moves.last(ws.id, flash?.move)} />

        <h2>API keys</h2>
        <KeyTable keys={view.keys} tokens={tokens} />
        <NewKeyCard ws={ws} tokens={tokens} />

        <h2>Connected apps</h2>
        {connections.length === 0 ? (
          <p class="muted">No app is connected to this workspace.</p>
        ) : (
          <ConnectionTable ws={ws} connections={connections} tokens={tokens} />
        )}
      </InspectorPage>,
    );
  };

/** The workspace's clock, the forms that move it alone, and what fell due in its last move. */
function WorkspaceClock(props: { ins: Inspector; ws: Workspace; last: Move | undefined }) {
  const { ins, ws, last } = props;
  const clock = ins.rt.clocks.of(ws.id);
  const now = clock.iso();
  // To the second: a move by a day lands a few ms short of one, as real time runs meanwhile.
  const ahead = Math.round(clock.offsetMs / 1000);
  return (
    <>
      <dl class="facts">
        <dt>Now, for this workspace</dt>
        <dd class="mono" id="workspace-now">
          {now}
        </dd>
        <dt>Ahead of the server's clock</dt>
        <dd>{ahead === 0 ? 'not at all' : aheadText(ahead)}</dd>
        <dt>Ends</dt>
        <dd>{ws.expires_at ? `${when(ws.expires_at)} UTC, on its clock` : 'never'}</dd>
      </dl>
      <MoveForms now={now} tokens={ins.tokens} wsId={ws.id} />
      {last === undefined ? null : <LastMove last={last} />}
    </>
  );
}

/** `3 days 4 h 5 min` */
function aheadText(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts = [
    days > 0 ? `${days} day${days === 1 ? '' : 's'}` : '',
    hours > 0 ? `${hours} h` : '',
    minutes > 0 ? `${minutes} min` : '',
  ].filter((p) => p !== '');
  return parts.length === 0 ? `${seconds} s` : parts.join(' ');
}

function WorkspaceFacts({ ws, tokens }: { ws: Workspace; tokens: PageTokens }) {
  const flip = ws.subscription_active ? 'off' : 'on';
  return (
    <dl class="facts">
      <dt>Id</dt>
      <dd class="mono">{ws.id}</dd>
      <dt>Timezone</dt>
      <dd>{ws.timezone}</dd>
      <dt>Created</dt>
      <dd>{when(ws.created_at)}</dd>
      <dt>Subscription</dt>
      <dd>
        <span class={`badge ${ws.subscription_active ? 'ok' : 'bad'}`}>
          {ws.subscription_active ? 'active' : 'off: the API answers 402 plan_required'}
        </span>{' '}
        <ActionForm
          action={`/inspector/workspaces/${ws.id}/subscription/${flip}`}
          token={tokens.issue(['subscription', ws.id, flip])}
          label={ws.subscription_active ? 'Turn off' : 'Turn on'}
          danger={ws.subscription_active}
        />
      </dd>
      <dt>Logs</dt>
      <dd>
        <a href={`/inspector/requests?workspace_id=${ws.id}`}>requests</a> ·{' '}
        <a href={`/inspector/webhooks?workspace_id=${ws.id}`}>webhooks</a>
      </dd>
    </dl>
  );
}

function KeyTable({ keys, tokens }: { keys: Key[]; tokens: PageTokens }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>Access</th>
          <th>Prefix</th>
          <th>Created</th>
          <th>Revoked</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr>
            <td>
              <a href={`/inspector/requests?key_id=${key.id}`}>{key.name}</a>
            </td>
            <td>{key.access}</td>
            <td class="mono">{key.prefix}</td>
            <td>{when(key.created_at)}</td>
            <td>{when(key.revoked_at)}</td>
            <td>
              {key.revoked_at === null ? (
                <ActionForm
                  action={`/inspector/keys/${key.id}/revoke`}
                  token={tokens.issue(['key.revoke', key.id])}
                  label="Revoke"
                  danger
                />
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NewKeyCard({ ws, tokens }: { ws: Workspace; tokens: PageTokens }) {
  return (
    <div class="card">
      <ActionForm
        action={`/inspector/workspaces/${ws.id}/keys`}
        token={tokens.issue(['key.create', ws.id])}
        label="Create key"
      >
        <label class="inline">
          Name <input name="name" maxlength={200} placeholder="API key" />
        </label>{' '}
        <label class="inline">
          Access{' '}
          <select name="access">
            <option value="write">write</option>
            <option value="read">read</option>
          </select>
        </label>{' '}
      </ActionForm>
      <p class="muted">
        Revoking takes effect at once and switches off the webhooks the key created.
      </p>
    </div>
  );
}

function ConnectionTable(props: { ws: Workspace; connections: Connection[]; tokens: PageTokens }) {
  const { ws, tokens } = props;
  return (
    <table>
      <thead>
        <tr>
          <th>App</th>
          <th>Scope</th>
          <th>Connected</th>
          <th>Disconnected</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {props.connections.map((conn) => (
          <tr>
            <td>
              <a href={`/inspector/requests?key_id=${conn.id}`}>
                {conn.app_name ?? conn.client_id}
              </a>
            </td>
            <td>{conn.scope}</td>
            <td>{when(conn.created_at)}</td>
            <td>{when(conn.disconnected_at)}</td>
            <td>
              {conn.disconnected_at === null ? (
                <ActionForm
                  action={`/inspector/workspaces/${ws.id}/connections/${conn.id}/disconnect`}
                  token={tokens.issue(['connection.disconnect', ws.id, conn.id])}
                  label="Disconnect"
                  danger
                />
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
