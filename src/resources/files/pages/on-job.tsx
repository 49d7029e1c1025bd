import type { OnJobPage } from '../../../platform/family';
import { CappedOnJob, momentAt, onJob } from '../../../web/ui/on-job';
import { Empty, pathOf } from '../../../web/ui/parts';
import { presentFile } from '../present';

// A job's files on its page: the photos as thumbnails, the other files listed.
export const filesOnJob: OnJobPage = {
  place: 'own',
  id: 'files',
  tab: 'Files',
  title: 'Files and photos',
  show(ctx, job) {
    const list = onJob(ctx, 'files', job.id);
    const files = list.items.map((f) => presentFile(ctx, f));
    // While the job is deleted its files' links answer 404, as the API does: no thumbnails then.
    const thumbs = job.deleted_at === null;
    const photos = files.filter((f) => thumbs && f.is_photo);
    const others = files.filter((f) => !thumbs || !f.is_photo);
    const part = (
      <>
        <CappedOnJob list={list} what="files" />
        {files.length === 0 ? <Empty what="files" /> : null}
        <div class="thumbs">
          {photos.map((f) => (
            <a href={pathOf(f.url)} title={f.name}>
              <img src={f.download_url} alt={f.description ?? f.name} loading="lazy" />
            </a>
          ))}
        </div>
        <ul>
          {others.map((f) => (
            <li>
              <a href={pathOf(f.url)}>{f.name}</a> <span class="muted">{f.category}</span>
            </li>
          ))}
        </ul>
      </>
    );
    const moments = list.items.flatMap((f) =>
      momentAt(f.created_at, `File uploaded: ${f.name}`, `/files/${f.id}`),
    );
    return { part, moments };
  },
};
