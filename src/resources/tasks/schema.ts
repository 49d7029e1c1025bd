import { z } from '@hono/zod-openapi';
import {
  listOf,
  nullableTimestamp,
  requiresOneOf,
  timestamp,
} from '../../platform/openapi/schemas';
import { pagingQuery } from '../../platform/paging';
import type { Rec } from '../../store';
import { createShape, date, patchShape, text, uuidInput } from '../common/fields';
import { wallClockField } from './wall-clock';

export const TASK_PRIORITIES = ['low', 'normal', 'high'] as const;
export const APPOINTMENT_TYPES = ['inspection', 'adjuster_meeting', 'build_day'] as const;
export const OUTCOMES = ['completed', 'no_show', 'rescheduled', 'canceled'] as const;
export const REMINDERS = ['none', 'sms', 'email', 'both'] as const;

/** What GET shows of a task that svc works out. */
type Worked = 'object' | 'is_appointment' | 'assigned_to_name' | 'url';

/** A task as stored: what GET shows but what is worked out, with its enumerations. */
export type Task = Rec &
  Omit<z.infer<typeof TaskSchema>, 'id' | Worked> & {
    object: 'task';
    priority: (typeof TASK_PRIORITIES)[number] | null;
    appointment_type: (typeof APPOINTMENT_TYPES)[number] | null;
    outcome: (typeof OUTCOMES)[number] | null;
    customer_reminder: (typeof REMINDERS)[number] | null;
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    tasks: Task;
  }
}

const nullable = z.string().nullable();

export const TaskSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('task'),
    title: nullable,
    description: nullable,
    due_date: nullable.openapi({
      description: 'Wall-clock local time YYYY-MM-DDTHH:MM:SS, no offset',
    }),
    end_date: nullable.openapi({ format: 'date' }),
    duration_minutes: z.number().int().nullable(),
    priority: nullable.openapi({ description: 'low, normal, high' }),
    completed: z.boolean(),
    completed_at: nullableTimestamp(),
    is_appointment: z.boolean(),
    appointment_type: nullable.openapi({ description: 'inspection, adjuster_meeting, build_day' }),
    outcome: nullable.openapi({ description: 'completed, no_show, rescheduled, canceled' }),
    customer_reminder: nullable.openapi({ description: 'none, sms, email, both' }),
    reminder_minutes: z.number().int().nullable(),
    job_id: z.uuid().nullable(),
    contact_id: z.uuid().nullable(),
    assigned_to_id: z.uuid().nullable(),
    assigned_to_name: nullable,
    created_at: timestamp(),
    updated_at: timestamp(),
    url: z.url(),
  })
  .openapi('Task');

// Fields a task body sets (TaskCreate, TaskUpdate); a new one is stored as sent.
export const taskFields = {
  description: text(10_000),
  due_date: wallClockField(),
  end_date: date(),
  duration_minutes: z
    .number()
    .int()
    .min(0)
    .max(60 * 24 * 31),
  priority: z.enum(TASK_PRIORITIES),
  appointment_type: z.enum(APPOINTMENT_TYPES),
  outcome: z.enum(OUTCOMES),
  customer_reminder: z.enum(REMINDERS),
  reminder_minutes: z
    .number()
    .int()
    .min(0)
    .max(60 * 24 * 31),
  job_id: uuidInput(),
  contact_id: uuidInput(),
  assigned_to: uuidInput().openapi({ description: 'A teammate user id from /users' }),
};

const title = text(300);

export const TaskCreateSchema = z
  .object(createShape({ ...taskFields, title, completed: z.boolean() }))
  .openapi('TaskCreate', {
    description:
      'title is required unless appointment_type is given (then it defaults to the type)',
    ...requiresOneOf([['title', 'appointment_type']], {
      appointment_type: { type: 'string', enum: [...APPOINTMENT_TYPES] },
    }),
  });

// spec: as POST /tasks, but appointment_type is required (and then the title may be left out).
export const AppointmentCreateSchema = z
  .object({
    ...createShape({ ...taskFields, title, completed: z.boolean() }),
    appointment_type: z.enum(APPOINTMENT_TYPES),
  })
  .openapi('AppointmentCreate', {
    description: 'appointment_type is required; title defaults to the type',
  });

export const TaskUpdateSchema = z
  .object(patchShape(taskFields))
  .extend({ title: title.optional(), completed: z.boolean().optional() })
  .openapi('TaskUpdate');

export type TaskCreate = z.output<typeof TaskCreateSchema>;
export type TaskUpdate = z.output<typeof TaskUpdateSchema>;

const dueBound = (description: string) => wallClockField(true).optional().openapi({ description });

export const TaskListQuery = pagingQuery.extend({
  completed: z.enum(['true', 'false']).optional(),
  appointments: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: 'true: appointments only; false: tasks that are not appointments' }),
  job_id: uuidInput().optional(),
  contact_id: uuidInput().optional(),
  assigned_to: uuidInput().optional(),
  due_after: dueBound('Due at or after (wall-clock, date or YYYY-MM-DDTHH:MM:SS)'),
  due_before: dueBound('Due before (wall-clock, date or YYYY-MM-DDTHH:MM:SS)'),
});

export type TaskListQuery = z.output<typeof TaskListQuery>;

export const TaskListSchema = listOf(TaskSchema, 'TaskList');
