import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { PageTokens, pageSecret } from '../../platform/http/page-tokens';
import type { Runtime } from '../../platform/runtime';
import { ClockMoves } from './clock';
import { advanceClock, setClock } from './clock-actions';
import { clockPage } from './clock-page';
import { controlApi } from './control';
import { addFault, clearFaults, deleteFault } from './fault-actions';
import { faultsPage } from './faults-page';
import { FlashStore } from './flash';
import { formLimit, type Inspector } from './forms';
import { requestListPage } from './request-list';
import { requestPage } from './request-page';
import { requestStream } from './request-stream';
import {
  enableWebhook,
  resendDelivery,
  rotateWebhookSecret,
  sendTestDelivery,
} from './webhook-actions';
import { webhookListPage } from './webhook-list';
import { webhookPage } from './webhook-page';
import {
  createKey,
  createWorkspace,
  disconnectApp,
  registerOAuthApp,
  revokeApiKey,
  turnSubscription,
} from './workspace-actions';
import { workspaceListPage } from './workspace-list';
import { workspacePage } from './workspace-page';

export { INSPECTOR_ASSETS } from './assets';

/**
 * The inspector under /inspector: the workspace settings and what svc adds (the request log, the
 * delivery log, the clock, faults). Every action is one of the control API's services. Each page
 * is a file of its own; every route of the inspector is registered here.
 */
export function inspectorRoutes(rt: Runtime) {
  const ins: Inspector = {
    rt,
    tokens: new PageTokens(rt.clock, pageSecret(rt)),
    flash: new FlashStore(rt.store.cluster?.flashes),
  };
  const control = controlApi(rt);
  // The clock page and each workspace's show what fell due in the last move their forms made.
  const moves = new ClockMoves(rt, control);
  const web = new Hono<AppEnv>();
  web.post('/inspector/*', formLimit);
  // With several nodes, the notice a form left is taken from the schema before its page is made.
  web.get('/inspector/*', async (c, next) => {
    await ins.flash.fetch(c.req.query('flash'));
    await next();
  });

  web.get('/inspector', workspaceListPage(ins));
  web.post('/inspector/workspaces', createWorkspace(ins, control));
  web.post('/inspector/oauth-apps', registerOAuthApp(ins));
  web.get('/inspector/workspaces/:id', workspacePage(ins, moves));
  web.post('/inspector/workspaces/:id/subscription/:to{on|off}', turnSubscription(ins));
  web.post('/inspector/workspaces/:id/keys', createKey(ins, control));
  web.post('/inspector/keys/:id/revoke', revokeApiKey(ins));
  web.post('/inspector/workspaces/:id/connections/:cid/disconnect', disconnectApp(ins));

  // The stream before /:id, which would otherwise take it for a call's id.
  web.get('/inspector/requests', requestListPage(ins));
  web.get('/inspector/requests/stream', requestStream(ins));
  web.get('/inspector/requests/:id', requestPage(ins));

  web.get('/inspector/webhooks', webhookListPage(ins));
  web.get('/inspector/webhooks/:id', webhookPage(ins));
  web.post('/inspector/webhooks/:id/test', sendTestDelivery(ins));
  web.post('/inspector/webhooks/:id/rotate', rotateWebhookSecret(ins));
  web.post('/inspector/webhooks/:id/enable', enableWebhook(ins));
  web.post('/inspector/deliveries/:id/resend', resendDelivery(ins));

  web.get('/inspector/clock', clockPage(ins, moves));
  web.post('/inspector/clock/advance/:by{hour|day}', advanceClock(ins, moves));
  web.post('/inspector/clock/set', setClock(ins, moves));
  web.post('/inspector/workspaces/:id/clock/advance/:by{hour|day}', advanceClock(ins, moves));
  web.post('/inspector/workspaces/:id/clock/set', setClock(ins, moves));

  web.get('/inspector/faults', faultsPage(ins));
  web.post('/inspector/faults', addFault(ins, control));
  web.post('/inspector/faults/clear', clearFaults(ins));
  web.post('/inspector/faults/:id/delete', deleteFault(ins));
  return web;
}
