import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { Runtime } from '../../platform/runtime';
import { appAction } from '../common/app-side';
import { text } from '../common/fields';
import { estimateRecords } from './present';
import { declineEstimate, sendEstimate, signEstimate, viewEstimate } from './service';

const SignSchema = z
  .object({
    signer_name: text(200).min(1, 'must not be empty'),
    selected_tier: z
      .string()
      .optional()
      .openapi({ description: "One of the estimate's package names (package_totals)" }),
  })
  .openapi('AdminEstimateSign');

/** DESIGN.md, control API: the estimate's life on the homeowner's side. */
export function estimateAdmin(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  appAction(
    app,
    rt,
    estimateRecords,
    {
      verb: 'send',
      operationId: 'sendEstimate',
      summary: 'Send for signature: sent, sent_at, signature_status pending, view_url',
    },
    (ctx, id) => sendEstimate(ctx, id),
  );
  appAction(
    app,
    rt,
    estimateRecords,
    {
      verb: 'view',
      operationId: 'viewEstimate',
      summary: 'The homeowner opens it: viewed, view_count, first and last viewed',
    },
    (ctx, id) => viewEstimate(ctx, id),
  );
  appAction(
    app,
    rt,
    estimateRecords,
    {
      verb: 'sign',
      operationId: 'signEstimate',
      summary: 'The homeowner signs: signed, signed_at, signer_name, selected_tier, signed_pdf_url',
      body: SignSchema,
    },
    (ctx, id, body) => signEstimate(ctx, id, body),
  );
  appAction(
    app,
    rt,
    estimateRecords,
    { verb: 'decline', operationId: 'declineEstimate', summary: 'The homeowner declines' },
    (ctx, id) => declineEstimate(ctx, id),
  );
  return app;
}
