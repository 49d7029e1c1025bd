import type { OnPortal } from '../../../platform/family';
import { APPOINTMENT_WORDS, wallNow, wallTime } from '../../../web/homeowner/format';

// What is booked at the homeowner's project: the job's appointments to come, soonest first.
export const tasksOnPortal: OnPortal = {
  draw(ctx, job) {
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
    return (
      <>
        <h2>Coming up</h2>
        {appointments.length === 0 ? (
          <p class="muted">Nothing is booked yet. {ctx.workspace.name} will let you know.</p>
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
      </>
    );
  },
};
