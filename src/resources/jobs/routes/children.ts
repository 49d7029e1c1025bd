import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv, ServiceContext } from '../../../platform/context';
import { jsonResponse } from '../../../platform/openapi/responses';
import { timeFilter } from '../../../platform/paging';
import type { Runtime } from '../../../runtime';
import type { Position, Rec } from '../../../store';
import type { WorkspaceCollections } from '../../../store/collections';
import { byId, paged, readOneErrors, recordId } from '../../common/routing';
import { presentEstimate } from '../../estimates/present';
import { EstimateListSchema } from '../../estimates/schema';
import { presentFile } from '../../files/present';
import { FILE_CATEGORIES, FileListSchema } from '../../files/schema';
import { presentInvoice } from '../../invoices/present';
import { InvoiceListSchema } from '../../invoices/schema';
import { NoteListSchema } from '../../notes/schema';
import { listNotes, presentNote } from '../../notes/service';
import { presentPayment } from '../../payments/present';
import { PaymentListSchema } from '../../payments/schema';
import { TaskListSchema } from '../../tasks/schema';
import { listTasks, presentTask } from '../../tasks/service';
import { SubListQuery } from '../input';
import { getJob } from '../visibility';

type Child = 'files' | 'estimates' | 'invoices' | 'payments';

/** Records of `coll` on one job within the query's time filters, newest first. */
const onJob =
  <K extends Child>(
    ctx: ServiceContext,
    coll: K,
    jobId: string,
    where: (rec: WorkspaceCollections[K]) => boolean = () => true,
  ) =>
  (q: SubQuery) =>
  (after: Position | undefined) => {
    const inTime = timeFilter(q);
    return ctx.ws.scan(coll, {
      after,
      limit: q.limit,
      where: (rec) => rec.job_id === jobId && where(rec) && inTime(rec),
    });
  };

const route = <Q extends z.ZodObject>(sub: string, summary: string, list: z.ZodType, query: Q) =>
  createRoute({
    method: 'get',
    path: `/jobs/{id}/${sub}`,
    summary,
    tags: ['Jobs'],
    request: { query },
    ...byId,
    responses: { 200: jsonResponse(list, summary), ...readOneErrors() },
  });

// spec, Jobs: /jobs/{id}/files also narrows by category.
const FileQuery = SubListQuery.extend({ category: z.enum(FILE_CATEGORIES).optional() });

type Page<R> = { items: R[]; hasMore: boolean };
type SubQuery = z.output<typeof FileQuery>;

/** What a service's list takes of a sub-list query: the page size and the time filters. */
const listPart = ({ limit, updated_since, created_after, created_before }: SubQuery) => ({
  limit,
  updated_since,
  created_after,
  created_before,
});

export function jobChildRoutes(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  /**
   * GET /jobs/{id}/<sub>: the request's own form first (a bad cursor is 400 for any job), then
   * the job (404 when there is none, or it is deleted), then a page of its records.
   */
  const sublist = <R extends Rec, T>(
    sub: string,
    summary: string,
    list: z.ZodType,
    scan: (
      ctx: ServiceContext,
      jobId: string,
      q: SubQuery,
    ) => (after: Position | undefined) => Page<R>,
    present: (ctx: ServiceContext, rec: R) => T,
    query: z.ZodObject = SubListQuery,
  ) => {
    app.openapi(route(sub, summary, list, query), (c) => {
      const ctx = c.get('ctx');
      const id = recordId(c);
      const q = c.req.valid('query') as SubQuery;
      const page = (after: Position | undefined) => {
        getJob(ctx, id);
        return scan(ctx, id, q)(after);
      };
      return c.json(
        paged(rt, ctx, `job-${sub}:${id}`, q, page, (r) => present(ctx, r)),
        200,
      );
    });
  };
  const byJob =
    <K extends Child>(coll: K) =>
    (ctx: ServiceContext, id: string, q: SubQuery) =>
      onJob(ctx, coll, id)(q);

  sublist(
    'notes',
    "The job's notes",
    NoteListSchema,
    (ctx, id, q) => (after) => listNotes(ctx, { ...listPart(q), job_id: id }, after),
    presentNote,
  );
  sublist(
    'files',
    "The job's files",
    FileListSchema,
    (ctx, id, q) =>
      onJob(ctx, 'files', id, (f) => q.category === undefined || f.category === q.category)(q),
    presentFile,
    FileQuery,
  );
  sublist(
    'photos',
    "The job's photos",
    FileListSchema,
    (ctx, id, q) => onJob(ctx, 'files', id, (f) => f.category === 'photo')(q),
    presentFile,
  );
  sublist(
    'tasks',
    "The job's tasks and appointments",
    TaskListSchema,
    (ctx, id, q) => (after) => listTasks(ctx, { ...listPart(q), job_id: id }, after),
    presentTask,
  );
  sublist(
    'estimates',
    "The job's estimates",
    EstimateListSchema,
    byJob('estimates'),
    presentEstimate,
  );
  sublist('invoices', "The job's invoices", InvoiceListSchema, byJob('invoices'), presentInvoice);
  sublist('payments', "The job's payments", PaymentListSchema, byJob('payments'), presentPayment);
  return app;
}
