import type { PageDeps } from '../../../platform/family';
import { Page } from '../../../web/ui/layout';
import {
  Crumbs,
  DeletedJobNotice,
  JobLink,
  OfflineLinks,
  onDeletedJob,
} from '../../../web/ui/on-job';
import { Facts, text, when } from '../../../web/ui/parts';
import { recordPage } from '../../../web/ui/record-of';
import { presentFile } from '../present';

// GET {app_url}/files/{id}: the owner's view of a file: its details, a preview of an image, and
// its signed download link (the bytes are served by the files family at /files/{id}/download).

const size = (bytes: number | null) =>
  bytes === null
    ? '—'
    : bytes < 1024
      ? `${bytes} B`
      : bytes < 1024 * 1024
        ? `${(bytes / 1024).toFixed(1)} KB`
        : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

type FileOut = ReturnType<typeof presentFile>;

/** The file's preview (a photo's) and its signed download link. */
function Download({ out, image }: { out: FileOut; image: boolean }) {
  return (
    <>
      {image ? (
        <p>
          <img class="preview" src={out.download_url} alt={out.description ?? out.name} />
        </p>
      ) : null}
      <p>
        <a class="button primary" href={out.download_url} download={out.name}>
          Download
        </a>{' '}
        <span class="muted">The link is signed and works without a key until it expires.</span>
      </p>
    </>
  );
}

export function filePage(deps: PageDeps) {
  return recordPage(deps, '/files/:id', 'files', 'file', (c, { ctx, rec }) => {
    const out = presentFile(ctx, rec);
    const image = out.is_photo || (out.mime_type ?? '').startsWith('image/');
    return c.html(
      <Page title={out.name} styles={['/_app/records.css']}>
        <Crumbs ctx={ctx} kind="File" />
        <h1>{out.name}</h1>
        <DeletedJobNotice ctx={ctx} jobId={rec.job_id} />
        {onDeletedJob(ctx, rec.job_id) ? (
          <OfflineLinks what="Its preview and download link are" />
        ) : (
          <Download out={out} image={image} />
        )}
        <div class="card">
          <Facts
            rows={[
              ['Job', <JobLink ctx={ctx} jobId={rec.job_id} />],
              ['Category', out.category],
              ['Type', text(out.mime_type)],
              ['Size', size(out.size_bytes)],
              ['Description', text(out.description)],
              ['Tags', out.tags.length ? out.tags.join(', ') : '—'],
              [
                'Taken',
                `${when(out.taken_at)}${out.latitude === null ? '' : ` at ${out.latitude}, ${out.longitude}`}`,
              ],
              ['Uploaded by', text(out.uploaded_by_name)],
              ['Uploaded', when(out.created_at)],
              ['Id', <code>{out.id}</code>],
            ]}
          />
        </div>
      </Page>,
    );
  });
}
