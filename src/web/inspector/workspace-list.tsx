import type { Handler } from 'hono';
import { listApps } from '../../oauth/service';
import type { AppEnv } from '../../platform/app-env';
import type { Workspace } from '../../platform/auth';
import type { Runtime } from '../../platform/runtime';
import { shownWorkspaces } from '../scope';
import type { Inspector } from './forms';
import { ActionForm, InspectorPage, when } from './parts';

// The inspector's first page, GET /inspector: the workspaces (made with a profile and a seed) a
// page at a time, the form that makes one, and the OAuth apps with the form that registers one.

const PER_PAGE = 50;
const PROFILES = ['empty', 'small', 'demo'] as const;

type OAuthApp = ReturnType<typeof listApps>[number];

/** The page of workspaces `page` asks for, and whether a later one exists. */
function pageOfWorkspaces(rt: Runtime, page: number, scope: string | undefined) {
  const all = shownWorkspaces(rt, scope);
  const shown = all.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  return { shown, hasNext: all.length > page * PER_PAGE };
}

/** Each workspace's keys not revoked, by workspace id. */
function liveKeyCounts(rt: Runtime): Map<string, number> {
  // One pass over the keys for every workspace's count, not one a workspace.
  const liveKeys = new Map<string, number>();
  for (const key of rt.store.global.values('api_keys')) {
    if (key.revoked_at === null) {
      liveKeys.set(key.workspace_id, (liveKeys.get(key.workspace_id) ?? 0) + 1);
    }
  }
  return liveKeys;
}

export const workspaceListPage =
  (ins: Inspector): Handler<AppEnv> =>
  (c) => {
    const { rt, tokens } = ins;
    const page = Math.max(1, Number.parseInt(c.req.query('page') ?? '1', 10) || 1);
    const scope = c.get('adminScope');
    const { shown, hasNext } = pageOfWorkspaces(rt, page, scope);
    return c.html(
      <InspectorPage
        scope={c.get('adminScope')}
        title="Workspaces"
        section="workspaces"
        flash={ins.flash.take(c.req.query('flash'))}
      >
        <h1>Workspaces</h1>
        <WorkspaceTable shown={shown} liveKeys={liveKeyCounts(rt)} />
        <p>
          {page > 1 ? <a href={`/inspector?page=${page - 1}`}>Previous</a> : null}{' '}
          {hasNext ? <a href={`/inspector?page=${page + 1}`}>Next</a> : null}
        </p>
        {/* The server's to make workspaces and register apps: not a control token's. */}
        {scope === undefined ? (
          <>
            <CreateWorkspaceCard token={tokens.issue(['workspace.create'])} />
            <OAuthAppsCard apps={listApps(rt)} token={tokens.issue(['oauth.register'])} />
          </>
        ) : null}
      </InspectorPage>,
    );
  };

function WorkspaceTable(props: { shown: Workspace[]; liveKeys: Map<string, number> }) {
  if (props.shown.length === 0) {
    return <p class="muted">No workspaces yet: create one below.</p>;
  }
  return (
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>Id</th>
          <th>Subscription</th>
          <th>Live keys</th>
          <th>Logs</th>
        </tr>
      </thead>
      <tbody>
        {props.shown.map((ws) => (
          <tr>
            <td>
              <a href={`/inspector/workspaces/${ws.id}`}>{ws.name}</a>
            </td>
            <td class="mono">{ws.id}</td>
            <td>
              <span class={`badge ${ws.subscription_active ? 'ok' : 'bad'}`}>
                {ws.subscription_active ? 'active' : 'off'}
              </span>
            </td>
            <td>{String(props.liveKeys.get(ws.id) ?? 0)}</td>
            <td>
              <a href={`/inspector/requests?workspace_id=${ws.id}`}>requests</a> ·{' '}
              <a href={`/inspector/webhooks?workspace_id=${ws.id}`}>webhooks</a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateWorkspaceCard({ token }: { token: string }) {
  return (
    <section class="card">
      <h2>Create a workspace</h2>
      <ActionForm action="/inspector/workspaces" token={token} label="Create" inline={false}>
        <label>
          Name <input name="name" maxlength={200} placeholder="drawn from the seed" />
        </label>
        <label>
          Profile{' '}
          <select name="profile">
            {PROFILES.map((p) => (
              <option value={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          Seed <input name="seed" inputmode="numeric" placeholder="random" />
        </label>
      </ActionForm>
      <p class="muted">Its write and read-only keys are shown once, after it is made.</p>
    </section>
  );
}

function OAuthAppsCard({ apps, token }: { apps: OAuthApp[]; token: string }) {
  return (
    <section class="card">
      <h2>OAuth apps</h2>
      {apps.length === 0 ? <p class="muted">No app registered.</p> : <AppTable apps={apps} />}
      <h3>Register an app</h3>
      <ActionForm action="/inspector/oauth-apps" token={token} label="Register" inline={false}>
        <label>
          Name <input name="name" required maxlength={200} />
        </label>
        <label>
          Redirect URIs, one a line
          <textarea name="redirect_uris" rows={3} cols={60} required />
        </label>
      </ActionForm>
      <p class="muted">Its client_secret is shown once, after it is registered.</p>
    </section>
  );
}

function AppTable({ apps }: { apps: OAuthApp[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>client_id</th>
          <th>Redirect URIs</th>
          <th>Registered</th>
        </tr>
      </thead>
      <tbody>
        {apps.map((app) => (
          <tr>
            <td>{app.name}</td>
            <td class="mono">{app.client_id}</td>
            <td>
              {app.redirect_uris.map((u) => (
                <div class="mono">{u}</div>
              ))}
            </td>
            <td>{when(app.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
