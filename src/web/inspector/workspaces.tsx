import { z } from '@hono/zod-openapi';
import { type Context, Hono } from 'hono';
import { CreatedWorkspaceSchema } from '../../admin/schemas';
import { presentWorkspace, revokeKey, setSubscription } from '../../admin/workspaces-service';
import { CreateAppSchema } from '../../oauth/schemas';
import { deleteConnection, listApps, listConnections, registerApp } from '../../oauth/service';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import { issueToError } from '../../platform/openapi/validation';
import { notFoundPage } from '../ui/not-found';
import type { ControlApi } from './control';
import { action, type Form, field, type Inspector, idParam } from './forms';
import { ActionForm, InspectorPage, when } from './parts';

// The workspace settings: workspaces (made with a profile and a seed), their keys, their
// subscription, and the OAuth apps and connections, each action one of the control API's.

const PER_PAGE = 50;
const PROFILES = ['empty', 'small', 'demo'] as const;

/** What POST /__admin/workspaces/{id}/keys answers: the key, shown once. */
const NewKeySchema = z.object({ key: z.string(), access: z.enum(['write', 'read']) });

/** A seed as typed: a number when it is one, else the text, for the control API to refuse. */
function seedOf(form: Form): number | string | undefined {
  const seed = field(form, 'seed');
  return seed === undefined ? undefined : /^-?\d+$/.test(seed) ? Number(seed) : seed;
}

export function workspaceRoutes(ins: Inspector, control: ControlApi) {
  const { rt, tokens } = ins;
  const web = new Hono<AppEnv>();

  web.get('/inspector', (c) => {
    const all = [...rt.store.global.values('workspaces')];
    const page = Math.max(1, Number.parseInt(c.req.query('page') ?? '1', 10) || 1);
    const shown = all.slice((page - 1) * PER_PAGE, page * PER_PAGE);
    // One pass over the keys for every workspace's count, not one a workspace.
    const liveKeys = new Map<string, number>();
    for (const key of rt.store.global.values('api_keys')) {
      if (key.revoked_at === null) {
        liveKeys.set(key.workspace_id, (liveKeys.get(key.workspace_id) ?? 0) + 1);
      }
    }
    const apps = listApps(rt);
    return c.html(
      <InspectorPage
        title="Workspaces"
        section="workspaces"
        flash={ins.flash.take(c.req.query('flash'))}
      >
        <h1>Workspaces</h1>
        {shown.length === 0 ? (
          <p class="muted">No workspaces yet: create one below.</p>
        ) : (
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
              {shown.map((ws) => (
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
                  <td>{String(liveKeys.get(ws.id) ?? 0)}</td>
                  <td>
                    <a href={`/inspector/requests?workspace_id=${ws.id}`}>requests</a> ·{' '}
                    <a href={`/inspector/webhooks?workspace_id=${ws.id}`}>webhooks</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p>
          {page > 1 ? <a href={`/inspector?page=${page - 1}`}>Previous</a> : null}{' '}
          {all.length > page * PER_PAGE ? <a href={`/inspector?page=${page + 1}`}>Next</a> : null}
        </p>

        <section class="card">
          <h2>Create a workspace</h2>
          <ActionForm
            action="/inspector/workspaces"
            token={tokens.issue(['workspace.create'])}
            label="Create"
            inline={false}
          >
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

        <section class="card">
          <h2>OAuth apps</h2>
          {apps.length === 0 ? (
            <p class="muted">No app registered.</p>
          ) : (
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
          )}
          <h3>Register an app</h3>
          <ActionForm
            action="/inspector/oauth-apps"
            token={tokens.issue(['oauth.register'])}
            label="Register"
            inline={false}
          >
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
      </InspectorPage>,
    );
  });

  web.post(
    '/inspector/workspaces',
    action(
      ins,
      () => ['workspace.create'],
      () => '/inspector',
      async (_c, form) => {
        const made = CreatedWorkspaceSchema.parse(
          await control('POST', '/workspaces', {
            name: field(form, 'name'),
            profile: field(form, 'profile'),
            seed: seedOf(form),
          }),
        );
        return {
          text: `Workspace ${made.name} created.`,
          shown: [
            { label: 'Write key', value: made.keys.write.key },
            { label: 'Read-only key', value: made.keys.read.key },
          ],
          back: `/inspector/workspaces/${made.id}`,
        };
      },
    ),
  );

  web.post(
    '/inspector/oauth-apps',
    action(
      ins,
      () => ['oauth.register'],
      () => '/inspector',
      (_c, form) => {
        const uris = (form.redirect_uris ?? '')
          .split(/\r?\n/)
          .map((u) => u.trim())
          .filter((u) => u !== '');
        const input = CreateAppSchema.safeParse({ name: form.name ?? '', redirect_uris: uris });
        if (!input.success) {
          const first = input.error.issues[0];
          throw first ? issueToError(first) : new ApiError('invalid_request', 'check the form');
        }
        const app = registerApp(rt, input.data);
        return {
          text: `App ${input.data.name} registered.`,
          shown: [
            { label: 'client_id', value: app.client_id },
            { label: 'client_secret', value: app.client_secret },
          ],
        };
      },
    ),
  );

  web.get('/inspector/workspaces/:id', (c) => {
    const ws = rt.store.global.get('workspaces', idParam(c));
    if (!ws) {
      return notFoundPage(c, 'workspace');
    }
    const view = presentWorkspace(rt, ws);
    const connections = listConnections(rt, ws.id);
    const flip = ws.subscription_active ? 'off' : 'on';
    return c.html(
      <InspectorPage
        title={ws.name}
        section="workspaces"
        flash={ins.flash.take(c.req.query('flash'))}
      >
        <h1>{ws.name}</h1>
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

        <h2>API keys</h2>
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
            {view.keys.map((key) => (
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

        <h2>Connected apps</h2>
        {connections.length === 0 ? (
          <p class="muted">No app is connected to this workspace.</p>
        ) : (
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
              {connections.map((conn) => (
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
        )}
      </InspectorPage>,
    );
  });

  const wsPage = (c: Context<AppEnv>) => `/inspector/workspaces/${idParam(c)}`;

  web.post(
    '/inspector/workspaces/:id/subscription/:to{on|off}',
    action(
      ins,
      (c) => ['subscription', idParam(c), idParam(c, 'to')],
      wsPage,
      (c) => {
        const on = idParam(c, 'to') === 'on';
        setSubscription(rt, idParam(c), on);
        return { text: on ? 'Subscription turned on.' : 'Subscription turned off.' };
      },
    ),
  );

  web.post(
    '/inspector/workspaces/:id/keys',
    action(
      ins,
      (c) => ['key.create', idParam(c)],
      wsPage,
      async (c, form) => {
        const key = NewKeySchema.parse(
          await control('POST', `/workspaces/${idParam(c)}/keys`, {
            name: field(form, 'name'),
            access: form.access,
          }),
        );
        return {
          text: `A ${key.access} key was created.`,
          shown: [{ label: `Key (${key.access})`, value: key.key }],
        };
      },
    ),
  );

  web.post(
    '/inspector/keys/:id/revoke',
    action(
      ins,
      (c) => ['key.revoke', idParam(c)],
      (c) => {
        const key = rt.store.global.get('api_keys', idParam(c));
        return key ? `/inspector/workspaces/${key.workspace_id}` : '/inspector';
      },
      (c) => {
        const key = revokeKey(rt, idParam(c));
        return { text: `Key ${key.name} (${key.prefix}…) revoked.` };
      },
    ),
  );

  web.post(
    '/inspector/workspaces/:id/connections/:cid/disconnect',
    action(
      ins,
      (c) => ['connection.disconnect', idParam(c), idParam(c, 'cid')],
      wsPage,
      (c) => {
        const conn = deleteConnection(rt, idParam(c), idParam(c, 'cid'));
        return { text: `${conn.app_name ?? conn.client_id} disconnected.` };
      },
    ),
  );

  return web;
}
