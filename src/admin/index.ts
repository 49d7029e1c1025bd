import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { oauthAdmin } from '../oauth';
import type { AppEnv } from '../platform/app-env';
import { limitBodies } from '../platform/http/body-limit';
import { bodyText } from '../platform/http/body-text';
import { validationHook } from '../platform/openapi/validation';
import type { Runtime } from '../platform/runtime';
import { FAMILIES } from '../resources';
import { bundleAdmin } from './bundles';
import { clockAdmin } from './clock';
import { connectionAdmin } from './connections';
import { faultAdmin } from './faults';
import { requestLogAdmin } from './requests';
import { restoreAdmin } from './restore';
import { snapshotAdmin } from './snapshots';
import { webhookAdmin } from './webhooks';
import { workspaceClockAdmin } from './workspace-clock';
import { workspaceAdmin } from './workspaces';

/**
 * The control API: what people do in the web app's settings, and what svc lets a test do that
 * the real service cannot. No credentials; JSON in and out; errors in the spec's envelope.
 */
export function adminApp(rt: Runtime): OpenAPIHono<AppEnv> {
  const admin = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  admin.use('*', limitBodies());
  admin.use('*', emptyJsonIsNoBody);
  admin.route('/', workspaceAdmin(rt));
  admin.route('/', clockAdmin(rt));
  admin.route('/', workspaceClockAdmin(rt));
  admin.route('/', requestLogAdmin(rt.requestLog));
  admin.route('/', restoreAdmin(rt));
  admin.route('/', webhookAdmin(rt));
  admin.route('/', oauthAdmin(rt));
  admin.route('/', connectionAdmin(rt));
  admin.route('/', faultAdmin(rt));
  admin.route('/', snapshotAdmin(rt));
  admin.route('/', bundleAdmin(rt));
  for (const family of FAMILIES) {
    if (family.admin) {
      admin.route('/', family.admin(rt));
    }
  }
  admin.get('/openapi.json', (c) =>
    c.json(
      admin.getOpenAPIDocument({
        openapi: '3.0.3',
        info: { title: 'svc control API', version: SVC_VERSION },
        // No credentials: it stands for the web app's settings, on the operator's machine.
        security: [],
        servers: [{ url: `${new URL(c.req.url).origin}/__admin` }],
      }),
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
