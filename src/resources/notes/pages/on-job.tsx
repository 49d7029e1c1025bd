import type { OnJobPage } from '../../../platform/family';
import { CappedOnJob, momentAt, onJob } from '../../../web/ui/on-job';
import { Empty, when } from '../../../web/ui/parts';
import { presentNote } from '../present';

// A job's notes on its page, each with its anchor (a note's `url` opens it there).
export const notesOnJob: OnJobPage = {
  place: 'own',
  id: 'notes',
  title: 'Notes',
  show(ctx, job) {
    const list = onJob(ctx, 'notes', job.id);
    const notes = list.items.map((n) => presentNote(ctx, n));
    const part = (
      <>
        <CappedOnJob list={list} what="notes" />
        {notes.length === 0 ? <Empty what="notes" /> : null}
        {notes.map((n) => (
          <article class="card" id={`note-${n.id}`}>
            <p class="muted">
              {n.author_name ?? 'Through the API'} · {when(n.created_at)}
            </p>
            <p>{n.content}</p>
          </article>
        ))}
      </>
    );
    const moments = list.items.flatMap((n) =>
      momentAt(n.created_at, 'Note added', `#note-${n.id}`),
    );
    return { part, moments };
  },
};
