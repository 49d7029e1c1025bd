import {
  comingIn,
  defineEvents,
  enumFilter,
  type Occurrence,
  occurrence,
  raisedFrom,
  UPDATED,
  withFields,
  yesFilter,
} from '../../platform/family';
import { userFilter } from '../users/api';
import { APPOINTMENT_TYPES } from './schema';

const assignedTo = userFilter('assigned_to', 'Assigned to', 'assigned_to_id');
const appointmentType = enumFilter('appointment_type', 'Appointment type', APPOINTMENT_TYPES);
const filters = [assignedTo, appointmentType, yesFilter('is_appointment', 'Appointments only')];

// spec, Events: the task events (an appointment is a task) and appointment.created.
export const taskEvents = defineEvents({
  resource: 'task',
  decls: [
    {
      event: 'task.created',
      label: 'Task created',
      description: 'A task or appointment was created.',
      filters,
      about: comingIn,
    },
    {
      event: 'task.updated',
      label: 'Task updated',
      description: 'A task or appointment changed; changed_fields lists what.',
      filters,
      extras: UPDATED,
    },
    {
      event: 'task.completed',
      label: 'Task completed',
      description: 'A task or appointment was marked done.',
      filters,
      about: raisedFrom((task) => ({ ...task, completed: false }), { completed: true }),
    },
    {
      event: 'task.deleted',
      label: 'Task deleted',
      description: 'A task or appointment was deleted.',
      filters,
      deleted: ['title', 'job_id'],
    },
    {
      event: 'appointment.created',
      label: 'Appointment scheduled',
      description: 'An appointment was scheduled.',
      filters: [assignedTo, appointmentType],
      about: withFields(comingIn, { is_appointment: true, appointment_type: 'inspection' }),
    },
  ],
  lifecycle: { created: 'task.created', updated: 'task.updated', deleted: 'task.deleted' },
  more: (was, now) => {
    const out: Occurrence[] = [];
    // decisions.md: an appointment is scheduled when a task becomes one, at creation or later.
    if (now?.is_appointment === true && was?.is_appointment !== true) {
      out.push(occurrence('appointment.created', now));
    }
    if (was && now && now.completed === true && was.completed !== true) {
      out.push(occurrence('task.completed', now));
    }
    return out;
  },
});
