import { ApiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position } from '../../store';
import { requireJob } from '../common/job';
import { findContact, requireContact } from '../contacts/api';
import { requireUser } from '../users/api';
import { linkedContact, taskIsVisible } from './present';
import {
  type Task,
  type TaskCreate,
  type TaskListQuery,
  type TaskUpdate,
  taskFields,
} from './schema';

export function getTask(ctx: ServiceContext, id: string): Task {
  const task = ctx.ws.get('tasks', id);
  if (!task || !taskIsVisible(ctx, task)) {
    throw new ApiError('not_found', 'no such task');
  }
  return task;
}

const APPOINTMENT_TITLES = {
  inspection: 'Inspection',
  adjuster_meeting: 'Adjuster meeting',
  build_day: 'Build day',
} as const;

type Fields = Partial<Omit<Task, 'id' | 'object' | 'created_at' | 'updated_at'>>;

/** The fields a body sets, with references checked and completion stamped. */
function fieldsOf(
  ctx: ServiceContext,
  input: TaskCreate | TaskUpdate,
  now: string,
  current?: Task,
): Fields {
  const { assigned_to, job_id, contact_id, completed, ...plain } = input;
  const out: Fields = {};
  for (const [key, value] of Object.entries(plain)) {
    if (value !== undefined) {
      (out as Record<string, unknown>)[key] = value === '' ? null : value;
    }
  }
  if (job_id !== undefined) {
    out.job_id = job_id === null ? null : requireJob(ctx, job_id, 'job_id').id;
  }
  if (contact_id !== undefined) {
    out.contact_id = contact_id === null ? null : requireContact(ctx, contact_id, 'contact_id').id;
  }
  if (assigned_to !== undefined) {
    out.assigned_to_id =
      assigned_to === null ? null : requireUser(ctx, assigned_to, 'assigned_to').id;
  }
  // spec, States: completed true sets completed_at (kept if it was already done); false clears it.
  if (completed !== undefined && completed !== current?.completed) {
    out.completed = completed;
    out.completed_at = completed ? now : null;
  }
  return out;
}

// An end date before the day the task is due is a mistake in the request; `field` names what the
// request sent (moving due_date past a stored end_date is a due_date error).
function checkEndDate(
  task: Pick<Task, 'due_date' | 'end_date'>,
  input: TaskCreate | TaskUpdate,
): void {
  if (
    task.end_date !== null &&
    task.due_date !== null &&
    task.end_date < task.due_date.slice(0, 10)
  ) {
    const field = input.end_date === undefined ? 'due_date' : 'end_date';
    throw new ApiError('invalid_request', 'end_date is before the day of due_date', field);
  }
}

// A new task's fields before its body: nothing known, not done, on nothing, unassigned.
export const NEW_TASK = {
  ...(Object.fromEntries(
    Object.keys(taskFields).map((key) => [key === 'assigned_to' ? 'assigned_to_id' : key, null]),
  ) as Record<Exclude<keyof typeof taskFields, 'assigned_to'> | 'assigned_to_id', null>),
  title: null,
  completed: false,
  completed_at: null,
} satisfies Fields;

/** decisions.md: a task needs a title; an appointment without one is titled by its type. */
export function createTask(ctx: ServiceContext, input: TaskCreate): Task {
  const now = ctx.clock.iso();
  const fields = { ...NEW_TASK, ...fieldsOf(ctx, input, now) };
  if (!fields.title) {
    if (!fields.appointment_type) {
      throw new ApiError('invalid_request', 'title is required', 'title');
    }
    fields.title = APPOINTMENT_TITLES[fields.appointment_type];
  }
  checkEndDate(fields, input);
  return ctx.ws.transaction((tx) =>
    tx.put('tasks', { id: newId(), object: 'task', ...fields, created_at: now, updated_at: now }),
  );
}

export function updateTask(ctx: ServiceContext, id: string, input: TaskUpdate): Task {
  const task = getTask(ctx, id);
  if (input.title !== undefined && input.title === '') {
    throw new ApiError('invalid_request', 'title cannot be empty', 'title');
  }
  const now = ctx.clock.iso();
  const next: Task = { ...task, ...fieldsOf(ctx, input, now, task) };
  // Taken off its job, a task whose contact is deleted would vanish with that contact; the client
  // saw no contact on it (contact_id null), so it keeps none.
  if (next.job_id === null && next.contact_id !== null && !findContact(ctx, next.contact_id)) {
    next.contact_id = null;
  }
  checkEndDate(next, input);
  if (JSON.stringify(next) === JSON.stringify(task)) {
    return task;
  }
  return ctx.ws.transaction((tx) => tx.put('tasks', { ...next, updated_at: now }));
}

/** spec, Conventions: a deleted task is gone for good. */
export function deleteTask(ctx: ServiceContext, id: string): Task {
  const task = getTask(ctx, id);
  ctx.ws.transaction((tx) => tx.delete('tasks', id));
  return task;
}

export function listTasks(
  ctx: ServiceContext,
  q: ListQuery & Partial<Omit<TaskListQuery, 'limit' | 'cursor'>> & { onlyAppointments?: boolean },
  after: Position | undefined,
) {
  const inTime = timeFilter(q);
  const isAppointment = (t: Task) => t.appointment_type !== null;
  return ctx.ws.scan('tasks', {
    after,
    on: q.job_id === undefined ? undefined : { field: 'job_id', value: q.job_id },
    limit: q.limit,
    where: (t) =>
      inTime(t) &&
      (q.completed === undefined || t.completed === (q.completed === 'true')) &&
      // On /appointments, appointments=false asks for none: both conditions hold (decisions.md).
      (!q.onlyAppointments || isAppointment(t)) &&
      (q.appointments === undefined || isAppointment(t) === (q.appointments === 'true')) &&
      (q.job_id === undefined || t.job_id === q.job_id) &&
      (q.contact_id === undefined || linkedContact(ctx, t) === q.contact_id) &&
      (q.assigned_to === undefined || t.assigned_to_id === q.assigned_to) &&
      // spec, Tasks: due_after / due_before compare wall-clock digits, never shifted
      (q.due_after === undefined || (t.due_date !== null && t.due_date >= q.due_after)) &&
      (q.due_before === undefined || (t.due_date !== null && t.due_date < q.due_before)) &&
      taskIsVisible(ctx, t),
  });
}
