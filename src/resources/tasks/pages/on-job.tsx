import type { OnJobPage } from '../../../platform/family';
import { CappedOnJob, momentAt, onJob } from '../../../web/ui/on-job';
import { Badge, Empty, pathOf, text } from '../../../web/ui/parts';
import { presentTask } from '../present';

// A job's tasks and appointments on its page, as a table.
export const tasksOnJob: OnJobPage = {
  place: 'own',
  id: 'tasks',
  tab: 'Tasks',
  title: 'Tasks and appointments',
  show(ctx, job) {
    const list = onJob(ctx, 'tasks', job.id);
    const tasks = list.items.map((t) => presentTask(ctx, t));
    const part = (
      <>
        <CappedOnJob list={list} what="tasks" />
        {tasks.length === 0 ? (
          <Empty what="tasks" />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Title</th>
                <th>Kind</th>
                <th>Due</th>
                <th>Assigned to</th>
                <th>Done</th>
              </tr>
            </thead>
            <tbody>
              {tasks.map((t) => (
                <tr>
                  <td>
                    <a href={pathOf(t.url)}>{text(t.title)}</a>
                  </td>
                  <td>{t.appointment_type ?? 'task'}</td>
                  <td>{text(t.due_date)}</td>
                  <td>{text(t.assigned_to_name)}</td>
                  <td>{t.completed ? <Badge tone="ok">done</Badge> : (t.outcome ?? '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </>
    );
    const moments = list.items.flatMap((t) => {
      const kind = t.appointment_type ? 'Appointment' : 'Task';
      const title = t.title ?? 'untitled';
      return [
        ...momentAt(t.created_at, `${kind} added: ${title}`, `/tasks/${t.id}`),
        ...momentAt(t.completed_at, `${kind} completed: ${title}`, `/tasks/${t.id}`),
      ];
    });
    return { part, moments };
  },
};
