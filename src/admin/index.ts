import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../context';
import { validationHook } from '../platform/openapi/validation';
import type { Services } from '../runtime';
import { clockAdmin } from './clock';
import { requestLogAdmin } from './requests';
import { restoreAdmin } from './restore';
import { webhookAdmin } from './webhooks';
import { workspaceAdmin } from './workspaces';

/**
 * The control API: what people do in the web app's settings, and what svc lets a test do that
 * the real service cannot. No credentials; JSON in and out; errors in the spec's envelope.
 */
export function adminApp(services: Services): OpenAPIHono<AppEnv> {
  const admin = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  admin.route('/', workspaceAdmin(services));
  admin.route('/', clockAdmin(services));
  admin.route('/', requestLogAdmin(services.requestLog));
  admin.route('/', restoreAdmin(services));
  admin.route('/', webhookAdmin(services));
  admin.get('/openapi.json', (c) =>
    c.json(
      admin.getOpenAPIDocument({
        openapi: '3.0.3',
        info: { title: 'svc control API', version: SVC_VERSION },
        servers: [{ url: `${new URL(c.req.url).origin}/__admin` }],
      }),
    ),
  );
  return admin;
}
