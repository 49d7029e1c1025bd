import type { PageDeps } from '../../../platform/family';
import { Page } from '../../../web/ui/layout';
import { Crumbs, DeletedJobNotice, JobLink } from '../../../web/ui/on-job';
import { Badge, Facts, text, when } from '../../../web/ui/parts';
import { recordPage } from '../../../web/ui/record-of';
import { contactName } from '../../contacts/api';
import { presentTask } from '../present';

// GET {app_url}/tasks/{id}: a task or an appointment.

export function taskPage(deps: PageDeps) {
  return recordPage(deps, '/tasks/:id', 'tasks', 'task', (c, { ctx, rec }) => {
    const out = presentTask(ctx, rec);
    const contact = rec.contact_id === null ? undefined : ctx.ws.get('contacts', rec.contact_id);
    const kind = out.is_appointment ? 'Appointment' : 'Task';
    return c.html(
      <Page title={out.title ?? kind}>
        <Crumbs ctx={ctx} kind={kind} />
        <h1>
          {text(out.title)} {out.completed ? <Badge tone="ok">done</Badge> : null}
        </h1>
        <DeletedJobNotice ctx={ctx} jobId={rec.job_id} />
        {contact?.deleted_at ? (
          <p class="notice bad">
            Its <a href={`/contacts/${contact.id}`}>contact is deleted</a>:{' '}
            {rec.job_id === null
              ? 'the API does not show the task meanwhile (a task on no job goes with its contact).'
              : 'the API does not name it on the task meanwhile.'}
          </p>
        ) : null}
        <div class="card">
          <Facts
            rows={[
              ['Job', <JobLink ctx={ctx} jobId={rec.job_id} />],
              [
                'Contact',
                contact ? <a href={`/contacts/${contact.id}`}>{contactName(contact)}</a> : '—',
              ],
              ['Appointment', text(out.appointment_type)],
              ['Due', text(out.due_date)],
              ['Ends', text(out.end_date)],
              ['Duration', out.duration_minutes === null ? '—' : `${out.duration_minutes} min`],
              ['Priority', text(out.priority)],
              ['Assigned to', text(out.assigned_to_name)],
              ['Completed', when(out.completed_at)],
              ['Outcome', text(out.outcome)],
              ['Reminder', text(out.customer_reminder)],
              ['Description', text(out.description)],
              ['Created', when(out.created_at)],
              ['Updated', when(out.updated_at)],
              ['Id', <code>{out.id}</code>],
            ]}
          />
        </div>
      </Page>,
    );
  });
}
