import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { Page } from '../ui/layout';
import { notFoundPage } from '../ui/not-found';
import { type Deps, recordOf } from './deps';
import { JOB_LIST_CAP, type JobView, jobView, type Listed } from './job-data';
import { JobMoney } from './job-money';
import { Badge, Capped as CappedAt, Empty, Facts, pathOf, text, when } from './parts';
import { DeletedNotice } from './restore';

// GET {app_url}/jobs/{id}: a job's page, where its `url` points (and a note's, at #note-<id>).

function Capped({ list, what }: { list: Listed<unknown>; what: string }) {
  return <CappedAt more={list.more} shown={JOB_LIST_CAP} what={what} />;
}

function Board({ view }: { view: JobView }) {
  const { out, stages, job } = view;
  return (
    <section id="board">
      <h2>{text(out.pipeline_name)}</h2>
      <div class="board">
        {stages.map((s) => (
          <span
            class={s.id === job.stage_id ? 'stage current' : 'stage'}
            aria-current={s.id === job.stage_id ? 'step' : undefined}
          >
            {s.label}
          </span>
        ))}
      </div>
      <p class="muted">
        In {text(out.stage_label)} since {when(out.stage_entered_at)}
      </p>
    </section>
  );
}

function People({ view }: { view: JobView }) {
  const { out } = view;
  return (
    <section id="people">
      <h2>People</h2>
      <Facts
        rows={[
          ...view.people.map(
            (p) =>
              [
                p.role,
                <>
                  <a href={`/contacts/${p.id}`}>{p.name}</a>
                  {p.deleted ? (
                    <>
                      {' '}
                      <Badge tone="bad">deleted</Badge>
                    </>
                  ) : null}
                </>,
              ] as const,
          ),
          ['Assigned to', text(out.assigned_to_name)],
          ['Team', out.assignee_names.length ? out.assignee_names.join(', ') : '—'],
        ]}
      />
    </section>
  );
}

function Notes({ view }: { view: JobView }) {
  return (
    <section id="notes">
      <h2>Notes</h2>
      <Capped list={view.notes} what="notes" />
      {view.notes.items.length === 0 ? <Empty what="notes" /> : null}
      {view.notes.items.map((n) => (
        <article class="card" id={`note-${n.id}`}>
          <p class="muted">
            {n.author_name ?? 'Through the API'} · {when(n.created_at)}
          </p>
          <p>{n.content}</p>
        </article>
      ))}
    </section>
  );
}

function Files({ view }: { view: JobView }) {
  const photos = view.files.items.filter((f) => f.is_photo);
  const others = view.files.items.filter((f) => !f.is_photo);
  return (
    <section id="files">
      <h2>Files and photos</h2>
      <Capped list={view.files} what="files" />
      {view.files.items.length === 0 ? <Empty what="files" /> : null}
      <div class="thumbs">
        {photos.map((f) => (
          <a href={pathOf(f.url)} title={f.name}>
            <img src={f.download_url} alt={f.description ?? f.name} loading="lazy" />
          </a>
        ))}
      </div>
      <ul>
        {others.map((f) => (
          <li>
            <a href={pathOf(f.url)}>{f.name}</a> <span class="muted">{f.category}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Tasks({ view }: { view: JobView }) {
  return (
    <section id="tasks">
      <h2>Tasks and appointments</h2>
      <Capped list={view.tasks} what="tasks" />
      {view.tasks.items.length === 0 ? (
        <Empty what="tasks" />
      ) : (
        <table>
          <thead>
            <tr>
              <th>Title</th>
              <th>Kind</th>
              <th>Due</th>
              <th>Assigned to</th>
              <th>Done</th>
            </tr>
          </thead>
          <tbody>
            {view.tasks.items.map((t) => (
              <tr>
                <td>
                  <a href={pathOf(t.url)}>{text(t.title)}</a>
                </td>
                <td>{t.appointment_type ?? 'task'}</td>
                <td>{text(t.due_date)}</td>
                <td>{text(t.assigned_to_name)}</td>
                <td>{t.completed ? <Badge tone="ok">done</Badge> : (t.outcome ?? '')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Timeline({ view }: { view: JobView }) {
  return (
    <section id="timeline">
      <h2>Timeline</h2>
      <ol class="timeline">
        {view.timeline.map((m) => (
          <li>
            <span class="muted">{when(m.at)}</span>{' '}
            {m.href ? <a href={m.href}>{m.what}</a> : m.what}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Details({ view }: { view: JobView }) {
  const { out } = view;
  return (
    <Facts
      rows={[
        ['Type', out.job_type],
        [
          'Address',
          [out.address, out.city, out.state, out.postal_code].filter((p) => p).join(', '),
        ],
        ['Priority', text(out.priority)],
        ['Insurance', `${text(out.insurance_company)} · claim ${text(out.claim_number)}`],
        ['Date of loss', text(out.date_of_loss)],
        ['Lead source', text(out.lead_source)],
        ['Tags', out.tags.length ? out.tags.join(', ') : '—'],
        [
          'Homeowner portal',
          // The homeowner's page is gone while the job is deleted, as the job is from the API.
          out.portal_url && view.job.deleted_at === null ? (
            <a href={pathOf(out.portal_url)}>the homeowner's page</a>
          ) : (
            'offline while the job is deleted'
          ),
        ],
        ['Created', when(out.created_at)],
        ['Updated', when(out.updated_at)],
        ['Id', <code>{out.id}</code>],
      ]}
    />
  );
}

export function jobPage(deps: Deps) {
  return new Hono<AppEnv>().get('/jobs/:id', (c) => {
    const found = recordOf(deps, c, 'jobs');
    if (!found) {
      return notFoundPage(c, 'job');
    }
    const view = jobView(found.ctx, found.rec);
    const { out, job } = view;
    const title = `${out.job_number} ${out.name ?? out.address ?? ''}`.trim();
    return c.html(
      <Page title={title} styles={['/_app/records.css']}>
        <p class="muted">
          <a href={`/workspaces/${found.ctx.workspace.id}`}>{found.ctx.workspace.name}</a> · Job
        </p>
        <h1>{title}</h1>
        {c.req.query('restored') !== undefined && job.deleted_at === null ? (
          <p class="notice ok">Restored: the job and everything on it are back.</p>
        ) : null}
        {job.deleted_at ? (
          <DeletedNotice
            coll="jobs"
            id={job.id}
            deletedAt={job.deleted_at}
            nowMs={found.ctx.clock.nowMs()}
            tokens={deps.tokens}
            what="job"
          />
        ) : null}
        {out.archived ? <p class="notice">Archived.</p> : null}
        <nav class="tabs">
          <a href="#money">Money</a>
          <a href="#notes">Notes</a>
          <a href="#files">Files</a>
          <a href="#tasks">Tasks</a>
          <a href="#timeline">Timeline</a>
        </nav>
        <Board view={view} />
        <div class="grid">
          <div class="card">
            <Details view={view} />
          </div>
          <div class="card">
            <People view={view} />
          </div>
        </div>
        <JobMoney view={view} />
        <Notes view={view} />
        <Files view={view} />
        <Tasks view={view} />
        <Timeline view={view} />
      </Page>,
    );
  });
}
