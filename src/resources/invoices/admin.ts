import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { Runtime } from '../../platform/runtime';
import { appAction } from '../common/app-side';
import { invoiceRecords } from './present';
import { viewInvoice, writeOff } from './service';

/** DESIGN.md, control API: the homeowner opens an invoice; the owner writes one off. */
export function invoiceAdmin(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  appAction(
    app,
    rt,
    invoiceRecords,
    {
      verb: 'view',
      operationId: 'viewInvoice',
      summary: 'The homeowner opens it: viewed, first_viewed_at',
    },
    (ctx, id) => viewInvoice(ctx, id),
  );
  appAction(
    app,
    rt,
    invoiceRecords,
    { verb: 'bad_debt', operationId: 'writeOffInvoice', summary: 'Written off: bad_debt' },
    (ctx, id) => writeOff(ctx, id),
  );
  return app;
}
