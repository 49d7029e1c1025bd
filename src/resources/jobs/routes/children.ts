import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv, Runtime, ServiceContext } from '../../../context';
import { jsonResponse } from '../../../platform/openapi/responses';
import type { Position, Rec } from '../../../store';
import type { WorkspaceCollections } from '../../../store/collections';
import { idParam, paged, readOneErrors } from '../../common/routing';
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

/** Records of `coll` on one job, newest first. */
const onJob =
  <K extends Child>(
    ctx: ServiceContext,
    coll: K,
    jobId: string,
    where: (rec: WorkspaceCollections[K]) => boolean = () => true,
  ) =>
  (limit: number) =>
  (after: Position | undefined) =>
    ctx.ws.scan(coll, { after, limit, where: (rec) => rec.job_id === jobId && where(rec) });

const route = <Q extends z.ZodObject>(sub: string, summary: string, list: z.ZodType, query: Q) =>
  createRoute({
    method: 'get',
    path: `/jobs/{id}/${sub}`,
    summary,
    tags: ['Jobs'],
    request: { params: idParam, query },
    responses: { 200: jsonResponse(list, summary), ...readOneErrors() },
  });

const FileQuery = SubListQuery.extend({ category: z.enum(FILE_CATEGORIES).optional() });

export function jobChildRoutes(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  /**
   * A page of the job's records: the request's own form first (a bad cursor is 400 for any job),
   * then the job (404 when there is none, or it is deleted).
   */
  const answer =
    <R extends Rec, T>(
      sub: string,
      scanFor: (
        ctx: ServiceContext,
        jobId: string,
        limit: number,
      ) => (after: Position | undefined) => { items: R[]; hasMore: boolean },
      present: (ctx: ServiceContext, rec: R) => T,
    ) =>
    (ctx: ServiceContext, id: string, q: { limit: number; cursor?: string | undefined }) =>
      // The request's own form first (a bad cursor is 400 for any job), then the job (404).
      paged(
        rt,
        ctx,
        `job-${sub}:${id}`,
        q,
        (after) => {
          getJob(ctx, id);
          return scanFor(ctx, id, q.limit)(after);
        },
        (r) => present(ctx, r),
      );

  const notes = answer(
    'notes',
    (ctx, id, limit) => (after) => listNotes(ctx, { limit, job_id: id }, after),
    presentNote,
  );
  app.openapi(route('notes', "The job's notes", NoteListSchema, SubListQuery), (c) =>
    c.json(notes(c.get('ctx'), c.req.valid('param').id, c.req.valid('query')), 200),
  );
  app.openapi(route('files', "The job's files", FileListSchema, FileQuery), (c) => {
    const { category } = c.req.valid('query');
    const files = answer(
      'files',
      (ctx, id, limit) =>
        onJob(ctx, 'files', id, (f) => category === undefined || f.category === category)(limit),
      presentFile,
    );
    return c.json(files(c.get('ctx'), c.req.valid('param').id, c.req.valid('query')), 200);
  });
  const photos = answer(
    'photos',
    (ctx, id, limit) => onJob(ctx, 'files', id, (f) => f.category === 'photo')(limit),
    presentFile,
  );
  app.openapi(route('photos', "The job's photos", FileListSchema, SubListQuery), (c) =>
    c.json(photos(c.get('ctx'), c.req.valid('param').id, c.req.valid('query')), 200),
  );
  const tasks = answer(
    'tasks',
    (ctx, id, limit) => (after) => listTasks(ctx, { limit, job_id: id }, after),
    presentTask,
  );
  app.openapi(
    route('tasks', "The job's tasks and appointments", TaskListSchema, SubListQuery),
    (c) => c.json(tasks(c.get('ctx'), c.req.valid('param').id, c.req.valid('query')), 200),
  );
  const estimates = answer(
    'estimates',
    (ctx, id, limit) => onJob(ctx, 'estimates', id)(limit),
    presentEstimate,
  );
  app.openapi(route('estimates', "The job's estimates", EstimateListSchema, SubListQuery), (c) =>
    c.json(estimates(c.get('ctx'), c.req.valid('param').id, c.req.valid('query')), 200),
  );
  const invoices = answer(
    'invoices',
    (ctx, id, limit) => onJob(ctx, 'invoices', id)(limit),
    presentInvoice,
  );
  app.openapi(route('invoices', "The job's invoices", InvoiceListSchema, SubListQuery), (c) =>
    c.json(invoices(c.get('ctx'), c.req.valid('param').id, c.req.valid('query')), 200),
  );
  const payments = answer(
    'payments',
    (ctx, id, limit) => onJob(ctx, 'payments', id)(limit),
    presentPayment,
  );
  app.openapi(route('payments', "The job's payments", PaymentListSchema, SubListQuery), (c) =>
    c.json(payments(c.get('ctx'), c.req.valid('param').id, c.req.valid('query')), 200),
  );
  return app;
}
