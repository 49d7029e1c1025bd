import type { PageDeps } from '../../../platform/family';
import { DeletedNotice } from '../../../web/ui/deleted-notice';
import { Page } from '../../../web/ui/layout';
import { Badge, Facts, pathOf, text, when } from '../../../web/ui/parts';
import { recordPage } from '../../../web/ui/record-of';
import { type JobView, jobView } from './data';
import { JobMoney } from './money';

// GET {app_url}/jobs/{id}: a job's page, where its `url` points (and a note's, at #note-<id>).

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

export function jobPage(deps: PageDeps) {
  return recordPage(deps, '/jobs/:id', 'jobs', 'job', (c, found) => {
    const view = jobView(found.ctx, found.rec, deps.onJob);
    const { out, job } = view;
    const own = view.parts.filter((p) => p.on.place === 'own');
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
          {own.map((p) => (
            <a href={`#${p.on.id}`}>{p.on.tab ?? p.on.title}</a>
          ))}
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
        {own.map((p) => (
          <section id={p.on.id}>
            <h2>{p.on.title}</h2>
            {p.part}
          </section>
        ))}
        <Timeline view={view} />
      </Page>,
    );
  });
}
