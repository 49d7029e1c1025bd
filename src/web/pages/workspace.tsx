import { Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../platform/app-env';
import type { PageDeps, PageRow } from '../../platform/family';
import { appContext } from '../../platform/service-context';
import { Page } from '../ui/layout';
import { notFoundPage } from '../ui/not-found';
import { Badge, count, Facts, when } from '../ui/parts';
import { NEWEST, type Section, sections, trash } from './workspace-data';

// GET {app_url}/workspaces/{id}: a workspace at a glance: its boards, then the newest records of
// each kind (each linking to its page) with how many the API shows, then what waits in the trash.
// Each section is its family's (workspace-data.ts).

function Rows({ rows }: { rows: readonly PageRow[] }) {
  return (
    <table>
      <tbody>
        {rows.map((r) => (
          <tr>
            <td>
              <a href={r.href}>{r.label}</a>
            </td>
            <td class="muted">{r.detail}</td>
            <td class="muted">{when(r.at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Listing({ s }: { s: Section }) {
  return (
    <section id={s.id}>
      <h2>
        {s.title} <span class="badge">{count(s.total)}</span>
      </h2>
      {s.rows.length === 0 ? <p class="muted">None.</p> : <Rows rows={s.rows} />}
      {s.total > s.rows.length ? (
        <p class="muted">
          The newest {NEWEST} of {count(s.total)}; the API lists them all.
        </p>
      ) : null}
    </section>
  );
}

export function workspacePage(deps: PageDeps) {
  return new Hono<AppEnv>().get('/workspaces/:id', (c) => {
    const id = c.req.param('id').toLowerCase();
    if (!deps.rt.store.global.get('workspaces', id)) {
      return notFoundPage(c, 'workspace');
    }
    const ctx = appContext(deps.rt, id, appUrlFor(deps.rt.config, c.req.url));
    const ws = ctx.workspace;
    const lists = sections(ctx);
    const deleted = trash(ctx);
    return c.html(
      <Page title={ws.name} styles={['/_app/records.css']}>
        <p class="muted">
          <a href="/">Workspaces</a> · Workspace
        </p>
        <h1>{ws.name}</h1>
        <div class="card">
          <Facts
            rows={[
              ['Id', <code>{ws.id}</code>],
              [
                'Subscription',
                ws.subscription_active ? (
                  <Badge tone="ok">on</Badge>
                ) : (
                  <Badge tone="bad">off: the API answers 402</Badge>
                ),
              ],
              ['Time zone', ws.timezone],
              ['Created', when(ws.created_at)],
            ]}
          />
        </div>
        <nav class="tabs">
          {lists.map((s) => (
            <a href={`#${s.id}`}>{s.title}</a>
          ))}
          <a href="#trash">Recently deleted</a>
        </nav>
        {lists.map((s) =>
          s.drawn === undefined ? <Listing s={s} /> : <section id={s.id}>{s.drawn}</section>,
        )}
        <section id="trash">
          <h2>Recently deleted</h2>
          {deleted.length === 0 ? (
            <p class="muted">
              Nothing: deleted jobs and contacts wait here 30 days, and can be restored from their
              page.
            </p>
          ) : (
            <Rows rows={deleted} />
          )}
        </section>
      </Page>,
    );
  });
}
