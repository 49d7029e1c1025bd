import type { Page } from '../../platform/family';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position, WorkspaceCollections } from '../../store';

/** The collections whose records carry the job they are on. */
type OnJob = {
  [K in keyof WorkspaceCollections]: WorkspaceCollections[K] extends { job_id: string | null }
    ? K
    : never;
}[keyof WorkspaceCollections];

/** A page of the records of `coll` on one job, within the query's time filters, newest first. */
export function scanOnJob<K extends OnJob>(
  ctx: ServiceContext,
  coll: K,
  jobId: string,
  q: ListQuery,
  after: Position | undefined,
  where: (rec: WorkspaceCollections[K]) => boolean = () => true,
): Page<WorkspaceCollections[K]> {
  const inTime = timeFilter(q);
  return ctx.ws.scan(coll, {
    after,
    on: { field: 'job_id', value: jobId },
    limit: q.limit,
    where: (rec) => rec.job_id === jobId && where(rec) && inTime(rec),
  });
}
