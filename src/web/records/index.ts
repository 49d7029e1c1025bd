import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import type { Runtime } from '../../runtime';
import type { Asset } from '../ui/assets';
import { PageTokens } from '../ui/tokens';
import { contactPage } from './contact';
import type { Deps } from './deps';
import { estimatePage } from './estimate';
import { filePage } from './file';
import { homePage } from './home';
import { invoicePage } from './invoice';
import { jobPage } from './job';
import { paymentPage } from './payment';
import { pinPages } from './pin';
import { restoreRoutes } from './restore';
import { stormListPage } from './storm-list';
import { RECORDS_CSS } from './style';
import { taskPage } from './task';
import { workspacePage } from './workspace';

// The record pages of the web app: the dashboard at the server root, a workspace's page, and the
// page every record's `url` opens; read through the families' presenters, so a page shows what
// GET /v1 answers. The one action here, Restore, goes through the control API's service.

export const RECORDS_ASSETS: Asset[] = [
  { name: 'records.css', type: 'text/css', body: RECORDS_CSS },
];

export function recordRoutes(rt: Runtime) {
  const deps: Deps = { rt, tokens: new PageTokens(rt.clock) };
  const app = new Hono<AppEnv>();
  for (const pages of [
    homePage(rt),
    workspacePage(deps),
    jobPage(deps),
    contactPage(deps),
    taskPage(deps),
    pinPages(deps),
    stormListPage(deps),
    estimatePage(deps),
    invoicePage(deps),
    paymentPage(deps),
    filePage(deps),
    restoreRoutes(rt, deps.tokens),
  ]) {
    app.route('/', pages);
  }
  return app;
}
