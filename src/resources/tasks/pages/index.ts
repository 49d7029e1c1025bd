import { type FamilyPages, listOf } from '../../../platform/family';
import { text } from '../../../web/ui/parts';
import { tasksOnJob } from './on-job';
import { tasksOnPortal } from './portal';
import { taskPage } from './record';

export const taskPages: FamilyPages = {
  routes: taskPage,
  workspace: {
    id: 'tasks',
    title: 'Tasks and appointments',
    list: listOf('tasks', () => (t) => ({
      href: `/tasks/${t.id}`,
      label: text(t.title),
      detail: `${t.appointment_type ?? 'task'}${t.completed ? ', done' : ''} · due ${text(t.due_date)}`,
      at: t.created_at,
    })),
  },
  onJob: tasksOnJob,
  onPortal: tasksOnPortal,
};
