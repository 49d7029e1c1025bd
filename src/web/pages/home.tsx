import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import type { Workspace } from '../../platform/auth/records';
import type { Runtime } from '../../platform/runtime';
import { countsOf } from '../../store/held';
import { shownWorkspaces } from '../scope';
import { Page } from '../ui/layout';
import { Badge, count } from '../ui/parts';

// The server root, where `svc listening on http://HOST:PORT` points: where to go from here (the
// base URL, the documents) and the workspaces, each linking to its page. Keys are shown once, by
// `svc seed --json` or the control API, never here.

const COUNTED = ['jobs', 'contacts', 'tasks', 'pins'] as const;

function Start({ origin }: { origin: string }) {
  return (
    <div class="card">
      <ul>
        <li>
          base URL: <code>{`${origin}/v1`}</code> (every call needs a key:{' '}
          <code>Authorization: Bearer …</code>)
        </li>
        <li>
          <a href="/v1/openapi.json">the API's OpenAPI document</a>
        </li>
        <li>
          <a href="/__admin/openapi.json">the control API's OpenAPI document</a> (
          <code>/__admin</code>, no key)
        </li>
        <li>
          <a href="/docs/errors">error codes</a>
        </li>
      </ul>
    </div>
  );
}

type Counts = (scope: string, coll: string) => number;

function WorkspaceRow({ counted, ws }: { counted: Counts; ws: Workspace }) {
  // Stored records, the 30-day trash included: a count costs nothing this way.
  return (
    <tr>
      <td>
        <a href={`/workspaces/${ws.id}`}>{ws.name}</a>
      </td>
      <td>
        <code>{ws.id}</code>
      </td>
      <td>
        {ws.subscription_active ? <Badge tone="ok">on</Badge> : <Badge tone="bad">off</Badge>}
      </td>
      {COUNTED.map((coll) => (
        <td class="money">{count(counted(ws.id, coll))}</td>
      ))}
    </tr>
  );
}

function Workspaces({
  counted,
  workspaces,
}: {
  counted: Counts;
  workspaces: readonly Workspace[];
}) {
  if (workspaces.length === 0) {
    return (
      <p class="muted">
        None yet: <code>POST /__admin/workspaces</code> makes one.
      </p>
    );
  }
  return (
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>Id</th>
          <th>Subscription</th>
          {COUNTED.map((coll) => (
            <th class="money">{coll}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {workspaces.map((ws) => (
          <WorkspaceRow counted={counted} ws={ws} />
        ))}
      </tbody>
    </table>
  );
}

export function homePage(rt: Pick<Runtime, 'store'>) {
  return new Hono<AppEnv>().get('/', async (c) => {
    const origin = new URL(c.req.url).origin;
    const workspaces = shownWorkspaces(rt, c.get('adminScope')).sort((a, b) =>
      a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0,
    );
    // On PostgreSQL, a workspace away from memory is counted there, not loaded.
    const counted = await countsOf(
      rt.store,
      workspaces.map((ws) => ws.id),
      COUNTED,
    );
    return c.html(
      <Page title="Workspaces">
        <h1>svc: Workspace Operations REST API v1</h1>
        <Start origin={origin} />
        <h2>Workspaces</h2>
        <Workspaces counted={counted} workspaces={workspaces} />
      </Page>,
    );
  });
}
