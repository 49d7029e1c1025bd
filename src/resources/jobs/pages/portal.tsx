import { Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../../platform/app-env';
import type { OnPortal, PageDeps } from '../../../platform/family';
import { appContext, type ServiceContext } from '../../../platform/service-context';
import { addressLine } from '../../../web/homeowner/documents';
import { Page } from '../../../web/ui/layout';
import { notFoundPage } from '../../../web/ui/not-found';
import { findJob } from '../../common/job';
import { findContact } from '../../contacts/api';
import type { Job } from '../schema';
import { PortalIndex } from './portal-index';

// A job's `portal_url`: the homeowner's page of their project. It shows what the company shares
// with them (where the job stands, what is booked, what was sent to them) and nothing internal:
// no notes, no files, no people of the company but its name, no other customer. What is booked and
// what was sent are the families' own parts (PageDeps.onPortal).

function stageWords(
  ctx: ServiceContext,
  job: Job,
): { label: string; stages: string[]; note?: string } {
  const stage = ctx.ws.get('stages', job.stage_id);
  if (!stage) {
    return { label: 'In progress', stages: [] };
  }
  // The board's columns the job moves through: its pipeline's, lost ones aside.
  const stages = [...ctx.ws.values('stages')]
    .filter((s) => s.pipeline_id === stage.pipeline_id && !s.is_lost)
    .sort((a, b) => a.order - b.order)
    .map((s) => s.label);
  if (stage.is_lost) {
    return { label: 'Closed', stages: [], note: 'This project is closed.' };
  }
  if (stage.is_completed || job.completed_at !== null) {
    return { label: stage.label, stages, note: 'Your project is complete. Thank you!' };
  }
  return { label: stage.label, stages };
}

function PortalPage({
  ctx,
  job,
  parts,
}: {
  ctx: ServiceContext;
  job: Job;
  parts: readonly OnPortal[];
}) {
  const owner = job.homeowner_id ? findContact(ctx, job.homeowner_id) : undefined;
  const stage = stageWords(ctx, job);
  const company = ctx.workspace.name;
  return (
    <Page title={`Your project · ${company}`} area="homeowner" styles={['/_app/homeowner.css']}>
      <p class="muted">{company}</p>
      <h1>{owner?.first_name ? `Hello, ${owner.first_name}` : 'Your project'}</h1>
      <div class="card">
        <dl class="facts">
          <dt>Property</dt>
          <dd>{addressLine(job)}</dd>
          <dt>Where it stands</dt>
          <dd>
            <strong>{stage.label}</strong>
          </dd>
        </dl>
        {stage.note ? <p>{stage.note}</p> : null}
        {stage.stages.length > 0 ? (
          <ol class="board progress">
            {stage.stages.map((label) => (
              <li class={`stage${label === stage.label ? ' current' : ''}`}>{label}</li>
            ))}
          </ol>
        ) : null}
      </div>
      {parts.map((p) => p.draw(ctx, job))}
    </Page>
  );
}

export function portalRoutes({ rt, onPortal }: PageDeps) {
  const index = new PortalIndex(rt.store);
  return new Hono<AppEnv>().get('/portal/:token', (c) => {
    const where = index.find(c.req.param('token'));
    const ctx = where && appContext(rt, where.workspaceId, appUrlFor(rt.config, c.req.url));
    // A deleted job's page is gone with it, as its record is from the API.
    const job = ctx && where && findJob(ctx, where.jobId);
    if (!ctx || !job) {
      return notFoundPage(c, 'project page', 'homeowner');
    }
    return c.html(<PortalPage ctx={ctx} job={job} parts={onPortal} />);
  });
}
