import type { z } from '@hono/zod-openapi';
import { defineRecords, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { jobIsLive } from '../common/job';
import { findContact } from '../contacts/api';
import { type Task, TaskSchema } from './schema';

export const presentTask = (ctx: ServiceContext, t: Task): z.infer<typeof TaskSchema> =>
  shape(TaskSchema, t, {
    object: 'task',
    is_appointment: t.appointment_type !== null,
    contact_id: linkedContact(ctx, t),
    assigned_to_name: t.assigned_to_id
      ? (ctx.ws.get('users', t.assigned_to_id)?.name ?? null)
      : null,
    url: `${ctx.appUrl}/tasks/${t.id}`,
  });

// decisions.md: a task belongs to its job when it has one, else to its contact, and is gone with
// the one it belongs to until that is restored. A task on a live job stays when its contact is
// deleted; the link is hidden meanwhile, as a job hides a deleted homeowner.
export const taskIsVisible = (ctx: ServiceContext, task: Task): boolean =>
  task.job_id !== null
    ? jobIsLive(ctx, task.job_id)
    : task.contact_id === null || findContact(ctx, task.contact_id) !== undefined;

export const linkedContact = (ctx: ServiceContext, task: Task): string | null =>
  task.contact_id !== null && findContact(ctx, task.contact_id) !== undefined
    ? task.contact_id
    : null;

/** Tasks and appointments as the API shows them, while what they belong to is live. */
export const taskRecords = defineRecords({
  coll: 'tasks',
  schema: TaskSchema,
  present: presentTask,
  visible: taskIsVisible,
  reads: ['users', 'contacts'],
});
