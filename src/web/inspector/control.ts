import { OpenAPIHono } from '@hono/zod-openapi';
import { clockAdmin } from '../../admin/clock';
import { faultAdmin } from '../../admin/faults';
import { workspaceClockAdmin } from '../../admin/workspace-clock';
import { workspaceAdmin } from '../../admin/workspaces';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import { toApiError } from '../../platform/errors/handler';
import { validationHook } from '../../platform/openapi/validation';
import type { Runtime } from '../../platform/runtime';

/**
 * The control API's own routes for the actions whose rules live in the route itself (what a new
 * workspace, a clock move or a fault may be: the body's schema and the checks beside it), called
 * in-process with the JSON the form stands for: the inspector shares those rules instead of
 * writing them again. Their ApiError is thrown on to the form's action, which shows it.
 */
const SCOPE_HEADER = 'x-svc-scope';

export function controlApi(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // A control-token sign-in's forms act as its token would (this app is never served: only the
  // calls below reach it, so the header cannot come from outside).
  app.use('*', async (c, next) => {
    c.set('adminScope', c.req.header(SCOPE_HEADER));
    await next();
  });
  app.route('/', workspaceAdmin(rt));
  app.route('/', clockAdmin(rt));
  app.route('/', workspaceClockAdmin(rt));
  app.route('/', faultAdmin(rt));
  app.onError((err) => {
    throw toApiError(err) ?? err;
  });
  return async (
    method: 'POST',
    path: string,
    body: unknown,
    scope?: string | undefined,
  ): Promise<unknown> => {
    const res = await app.request(path, {
      method,
      headers: {
        'Content-Type': 'application/json',
        ...(scope === undefined ? {} : { [SCOPE_HEADER]: scope }),
      },
      body: JSON.stringify(body),
    });
    if (!res.ok) {
      // Every refusal of these routes is an ApiError, thrown above; nothing else answers so.
      throw new ApiError('server_error', `the control API answered ${res.status}`);
    }
    return (await res.json()) as unknown;
  };
}

export type ControlApi = ReturnType<typeof controlApi>;
