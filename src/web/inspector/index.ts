import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import type { Runtime } from '../../runtime';
import { PageTokens } from '../ui/tokens';
import { clockRoutes } from './clock';
import { controlApi } from './control';
import { faultRoutes } from './faults';
import { FlashStore } from './flash';
import { formLimit, type Inspector } from './forms';
import { requestRoutes } from './requests';
import { webhookRoutes } from './webhooks';
import { workspaceRoutes } from './workspaces';

export { INSPECTOR_ASSETS } from './assets';

/**
 * The inspector under /inspector: the workspace settings and what svc adds (the request log, the
 * delivery log, the clock, faults). Every action is one of the control API's services.
 */
export function inspectorRoutes(rt: Runtime) {
  const ins: Inspector = { rt, tokens: new PageTokens(rt.clock), flash: new FlashStore() };
  const control = controlApi(rt);
  const web = new Hono<AppEnv>();
  web.post('/inspector/*', formLimit);
  web.route('/', workspaceRoutes(ins, control));
  web.route('/', requestRoutes(ins));
  web.route('/', webhookRoutes(ins));
  web.route('/', clockRoutes(ins, control));
  web.route('/', faultRoutes(ins, control));
  return web;
}
