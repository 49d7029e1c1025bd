import { DAY, iso, type Profile, type SeedStep } from '../../platform/family';
import { APPOINTMENT_FOR_STAGE } from '../pipelines/seed';
import { NEW_TASK } from './service';

export const TASK_TITLES = [
  'Call homeowner about the claim number',
  'Upload inspection photos',
  'Send the supplement to the carrier',
  'Collect the deductible',
  'Order materials',
  'Confirm the build date with the crew',
  'Follow up on the depreciation check',
  'Get the mortgage company to endorse the check',
  'Send the final invoice',
  'Ask for a review',
] as const;

/** Tasks a job carries on average. */
const PER_JOB: Record<Profile, number> = { empty: 0, small: 1, demo: 1.2, large: 0.4 };

const TITLES = {
  inspection: 'Inspection',
  adjuster_meeting: 'Adjuster meeting',
  build_day: 'Build day',
} as const;

/**
 * A job's tasks around the seed's horizon, done when they fell due a while before it; a showcase
 * job has at least one, an appointment of the kind its column books.
 */
export const taskSeed: SeedStep = {
  job(s, job) {
    const f = s.faker;
    const booked = s.showcase.has(job.id);
    const stage = s.all('stages').find((st) => st.id === job.stage_id);
    const appointment = stage && APPOINTMENT_FOR_STAGE[stage.key];
    const count = s.count(PER_JOB[s.profile]);
    for (let i = booked ? Math.max(count, 1) : count; i > 0; i--) {
      const drawn = f.number.int({ min: 0, max: 2 }) === 0;
      const isAppointment = appointment !== undefined && (drawn || (booked && i === 1));
      const dueMs = s.until + f.number.int({ min: -14, max: 21 }) * DAY;
      const done = dueMs < s.until && f.number.int({ min: 0, max: 9 }) < 7;
      const created = s.when(Date.parse(job.created_at));
      // Done an hour after it was due, but never before it was made nor after the horizon; the
      // completion is the task's last change (created_at <= completed_at <= updated_at).
      const completed = Math.min(Math.max(dueMs + 3_600_000, created), s.until - 1);
      const day = iso(dueMs).slice(0, 10);
      const hour = String(f.number.int({ min: 8, max: 16 })).padStart(2, '0');
      s.add('tasks', {
        ...NEW_TASK,
        id: f.string.uuid(),
        object: 'task',
        title:
          isAppointment && appointment
            ? `${TITLES[appointment]} - ${job.name}`
            : f.helpers.arrayElement(TASK_TITLES),
        description: null,
        due_date: `${day}T${hour}:${f.helpers.arrayElement(['00', '30'])}:00`,
        end_date:
          isAppointment && appointment === 'build_day' && f.number.int({ min: 0, max: 2 }) === 0
            ? iso(dueMs + DAY).slice(0, 10)
            : null,
        duration_minutes: isAppointment ? f.helpers.arrayElement([30, 60, 90, 480]) : null,
        priority: f.helpers.arrayElement(['low', 'normal', 'high'] as const),
        completed: done,
        completed_at: done ? iso(completed) : null,
        appointment_type: isAppointment ? (appointment ?? null) : null,
        outcome: isAppointment && done ? 'completed' : null,
        customer_reminder: isAppointment
          ? f.helpers.arrayElement(['none', 'sms', 'email', 'both'] as const)
          : null,
        reminder_minutes: isAppointment ? 60 : null,
        job_id: job.id,
        contact_id: isAppointment ? job.homeowner_id : null,
        assigned_to_id: job.assigned_to_id,
        created_at: iso(created),
        updated_at: iso(done ? completed : created),
      });
    }
  },
};
