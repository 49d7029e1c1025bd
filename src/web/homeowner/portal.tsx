import { Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../platform/app-env';
import type { Platform } from '../../platform/platform';
import { appContext, type ServiceContext } from '../../platform/service-context';
import { findContact } from '../../resources/contacts/service';
import { presentEstimate } from '../../resources/estimates/present';
import { presentInvoice } from '../../resources/invoices/present';
import type { Job } from '../../resources/jobs/schema';
import { findJob } from '../../resources/jobs/visibility';
import { Page } from '../ui/layout';
import { notFoundPage } from '../ui/not-found';
import { addressLine } from './documents';
import {
  APPOINTMENT_WORDS,
  ESTIMATE_WORDS,
  INVOICE_WORDS,
  money,
  wallNow,
  wallTime,
} from './format';
import type { PortalIndex } from './portal-index';

// A job's `portal_url`: the homeowner's page of their project. It shows what the company shares
// with them (where the job stands, what is booked, what was sent to them) and nothing internal:
// no notes, no files, no people of the company but its name, no other customer.

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

function portalData(ctx: ServiceContext, job: Job) {
  const now = wallNow(ctx.clock.nowMs(), ctx.workspace.timezone);
  const appointments = [...ctx.ws.values('tasks')]
    .filter(
      (t) =>
        t.job_id === job.id &&
        t.appointment_type !== null &&
        !t.completed &&
        t.outcome !== 'canceled' &&
        t.due_date !== null &&
        t.due_date >= now,
    )
    .sort((a, b) => (a.due_date ?? '').localeCompare(b.due_date ?? ''));
  const estimates = [...ctx.ws.values('estimates')]
    .filter((e) => e.job_id === job.id && e.sent_at !== null)
    .sort((a, b) => (b.sent_at ?? '').localeCompare(a.sent_at ?? ''))
    .map((e) => presentEstimate(ctx, e));
  const invoices = [...ctx.ws.values('invoices')]
    // Billed to the homeowner: an invoice of the job billed to someone else is not theirs.
    .filter(
      (i) =>
        i.job_id === job.id &&
        i.sent_at !== null &&
        i.status !== 'void' &&
        (i.contact_id === null || i.contact_id === job.homeowner_id),
    )
    .sort((a, b) => (b.sent_at ?? '').localeCompare(a.sent_at ?? ''))
    .map((i) => presentInvoice(ctx, i));
  return { appointments, estimates, invoices };
}

const local = (url: string | null) => (url === null ? null : new URL(url).pathname);

function PortalPage({ ctx, job }: { ctx: ServiceContext; job: Job }) {
  const owner = job.homeowner_id ? findContact(ctx, job.homeowner_id) : undefined;
  const stage = stageWords(ctx, job);
  const { appointments, estimates, invoices } = portalData(ctx, job);
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
      <h2>Coming up</h2>
      {appointments.length === 0 ? (
        <p class="muted">Nothing is booked yet. {company} will let you know.</p>
      ) : (
        <ul>
          {appointments.map((t) => (
            <li>
              <strong>{APPOINTMENT_WORDS[t.appointment_type ?? ''] ?? 'Appointment'}</strong>:{' '}
              {wallTime(t.due_date ?? '')}
              {t.duration_minutes ? ` (about ${t.duration_minutes} minutes)` : ''}
            </li>
          ))}
        </ul>
      )}
      <h2>Estimates</h2>
      {estimates.length === 0 ? (
        <p class="muted">None sent to you yet.</p>
      ) : (
        <table>
          <tbody>
            {estimates.map((e) => (
              <tr>
                <td>
                  <a href={local(e.view_url) ?? ''}>{e.title ?? e.estimate_number}</a>
                  <div class="muted mono">{e.estimate_number}</div>
                </td>
                <td>{ESTIMATE_WORDS[e.status ?? ''] ?? e.status}</td>
                <td class="money">{money(e.total)}</td>
                <td>
                  <a href={local(e.signed_pdf_url ?? e.pdf_url) ?? ''}>PDF</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Invoices</h2>
      {invoices.length === 0 ? (
        <p class="muted">None sent to you yet.</p>
      ) : (
        <table>
          <tbody>
            {invoices.map((i) => (
              <tr>
                <td>
                  {i.title ?? `Invoice ${i.invoice_number ?? ''}`}
                  {i.title ? <div class="muted mono">{i.invoice_number}</div> : null}
                </td>
                <td>{INVOICE_WORDS[i.status] ?? i.status}</td>
                <td class="money">
                  {money(i.total_amount)}
                  {i.balance_due > 0 ? <div class="muted">{money(i.balance_due)} due</div> : null}
                </td>
                <td>
                  {i.payment_url ? (
                    <a class="button primary" href={local(i.payment_url) ?? ''}>
                      Pay
                    </a>
                  ) : null}{' '}
                  <a href={local(i.pdf_url) ?? ''}>PDF</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}

export function portalRoutes(rt: Platform, index: PortalIndex) {
  return new Hono<AppEnv>().get('/portal/:token', (c) => {
    const where = index.find(c.req.param('token'));
    const ctx = where && appContext(rt, where.workspaceId, appUrlFor(rt.config, c.req.url));
    // A deleted job's page is gone with it, as its record is from the API.
    const job = ctx && where && findJob(ctx, where.jobId);
    if (!ctx || !job) {
      return notFoundPage(c, 'project page', 'homeowner');
    }
    return c.html(<PortalPage ctx={ctx} job={job} />);
  });
}
