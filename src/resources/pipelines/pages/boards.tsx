import type { ServiceContext } from '../../../platform/service-context';
import type { WorkspaceCollections } from '../../../store';
import { jobLabel } from '../../../web/ui/on-job';
import { count } from '../../../web/ui/parts';
import type { Stage } from '../schema';
import { listPipelines, stagesOf } from '../service';

// A workspace's boards on its page: each pipeline's columns with the newest live, unarchived jobs
// in each.

/** How many jobs each column of a board lists. */
export const PER_STAGE = 5;

type Job = WorkspaceCollections['jobs'];

interface Column {
  stage: Stage;
  jobs: Job[];
  total: number;
}

/** Each board with its columns: one pass over the jobs. */
function boards(ctx: ServiceContext) {
  const byStage = new Map<string, Job[]>();
  for (const job of ctx.ws.values('jobs')) {
    if (job.deleted_at === null && !job.archived) {
      const list = byStage.get(job.stage_id) ?? [];
      list.push(job);
      byStage.set(job.stage_id, list);
    }
  }
  return listPipelines(ctx).map((pipeline) => ({
    pipeline,
    columns: stagesOf(ctx, pipeline.id).map((stage): Column => {
      const jobs = byStage.get(stage.id) ?? [];
      const newest = jobs
        .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
        .slice(0, PER_STAGE);
      return { stage, jobs: newest, total: jobs.length };
    }),
  }));
}

function BoardColumn({ col }: { col: Column }) {
  return (
    <div class="card column">
      <h3>
        {col.stage.label} <span class="badge">{count(col.total)}</span>
      </h3>
      <ul>
        {col.jobs.map((j) => (
          <li>
            <a href={`/jobs/${j.id}`}>{jobLabel(j)}</a>
          </li>
        ))}
      </ul>
      {col.total > col.jobs.length ? (
        <p class="muted">and {count(col.total - col.jobs.length)} more</p>
      ) : null}
    </div>
  );
}

export function Boards({ ctx }: { ctx: ServiceContext }) {
  return (
    <>
      {boards(ctx).map((b) => (
        <>
          <h2>
            {b.pipeline.name} {b.pipeline.is_default ? <span class="badge">default</span> : null}
          </h2>
          <div class="columns">
            {b.columns.map((col) => (
              <BoardColumn col={col} />
            ))}
          </div>
        </>
      ))}
    </>
  );
}
