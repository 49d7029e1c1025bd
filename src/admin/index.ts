import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { oauthAdmin } from '../oauth';
import type { AppEnv } from '../platform/app-env';
import { limitBodies } from '../platform/http/body-limit';
import { bodyText } from '../platform/http/body-text';
import { validationHook } from '../platform/openapi/validation';
import type { Runtime } from '../platform/runtime';
import { FAMILIES } from '../resources';
import { guard } from './access';
import { bundleAdmin } from './bundles';
import { clockAdmin } from './clock';
import { connectionAdmin } from './connections';
import { faultAdmin } from './faults';
import { oauthAuthorizeAdmin } from './oauth-authorize';
import { requestLogAdmin } from './requests';
import { restoreAdmin } from './restore';
import { snapshotAdmin } from './snapshots';
import { webhookAdmin } from './webhooks';
import { workspaceClockAdmin } from './workspace-clock';
import { workspaceAdmin } from './workspaces';

/**
 * The control API: what people do in the web app's settings, and what svc lets a test do that
 * the real service cannot. JSON in and out; errors in the spec's envelope. Open to anyone on a
 * server without an admin token; else the admin token's, or a workspace's control token's for
 * that workspace alone (access/).
 */
export function adminApp(rt: Runtime): OpenAPIHono<AppEnv> {
  const admin = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  admin.use('*', guard(rt));
  admin.use('*', limitBodies());
  admin.use('*', emptyJsonIsNoBody);
  admin.route('/', workspaceAdmin(rt));
  admin.route('/', clockAdmin(rt));
  admin.route('/', workspaceClockAdmin(rt));
  admin.route('/', requestLogAdmin(rt.requestLog));
  admin.route('/', restoreAdmin(rt));
  admin.route('/', webhookAdmin(rt));
  admin.route('/', oauthAdmin(rt));
  admin.route('/', oauthAuthorizeAdmin(rt));
  admin.route('/', connectionAdmin(rt));
  admin.route('/', faultAdmin(rt));
  admin.route('/', snapshotAdmin(rt));
  admin.route('/', bundleAdmin(rt));
  for (const family of FAMILIES) {
    if (family.admin) {
      admin.route('/', family.admin(rt));
    }
  }
  admin.openAPIRegistry.registerComponent('securitySchemes', 'adminToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'The token `svc serve --admin-token` (or SVC_ADMIN_TOKEN) was started with: every route. A server started without one answers without any credential.',
  });
  admin.openAPIRegistry.registerComponent('securitySchemes', 'controlToken', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svc_ctl_…',
    description:
      "A workspace's control token, from POST /workspaces: that workspace's routes, records, keys, clock, faults, logs, snapshot and deletion; anything about another workspace or the whole server is 403 forbidden.",
  });
  admin.get('/openapi.json', (c) =>
    c.json(
      withAccessErrors(
        admin.getOpenAPIDocument({
          openapi: '3.0.3',
          info: { title: 'svc control API', version: SVC_VERSION },
          // Either token; or none, on a server started without an admin token (decisions.md).
          security: [{ adminToken: [] }, { controlToken: [] }, {}],
          servers: [{ url: `${new URL(c.req.url).origin}/__admin` }],
        }),
      ),
    ),
  );
  return admin;
}

// Every body the control API takes is all-optional somewhere (a test send, a new workspace), and
// scripts often send `Content-Type: application/json` with nothing after it: that is no body, as
// it is without the header, not malformed JSON.
const emptyJsonIsNoBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'GET' && c.req.header('content-type')?.includes('json')) {
    // Read once here, as UTF-8 (a body that is not is no JSON); Hono keeps the text, and the
    // validators parse what it holds.
    if ((await bodyText(c)).trim() === '') {
      // Hono's cache holds promises of the bodies, whatever its type says.
      (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve('{}');
    }
  }
  await next();
};

const accessError = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** Every operation may answer the door's refusals (access/): they are added to each here. */
function withAccessErrors<D extends { paths?: object }>(doc: D): D {
  for (const item of Object.values(doc.paths ?? {}) as Record<string, unknown>[]) {
    for (const op of Object.values(item) as { responses?: Record<string, unknown> }[]) {
      if (op.responses !== undefined) {
        op.responses['401'] ??= accessError(
          'No admin token, or a wrong one, on a server started with --admin-token; or an unknown control token',
        );
        op.responses['403'] ??= accessError(
          'A control token, asking about another workspace or the whole server',
        );
      }
    }
  }
  return doc;
}
