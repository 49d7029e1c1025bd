import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import type { PageDeps } from '../../platform/family';
import { PageTokens } from '../../platform/http/page-tokens';
import type { Runtime } from '../../platform/runtime';
import { FAMILIES, jobChildren } from '../../resources';
import type { Asset } from '../ui/assets';
import { homePage } from './home';
import { restoreRoutes } from './restore';
import { RECORDS_CSS } from './style';
import { workspacePage } from './workspace';

// The record pages of the web app: the dashboard at the server root, a workspace's page, and the
// page every record's `url` opens, which its family draws (Family.pages) through its presenters,
// so a page shows what GET /v1 answers. The one action here, Restore, goes through the control
// API's service.

export const RECORDS_ASSETS: Asset[] = [
  { name: 'records.css', type: 'text/css', body: RECORDS_CSS },
];

export function recordRoutes(rt: Runtime) {
  const children = jobChildren().flatMap((f) => (f.pages ? [f.pages] : []));
  const deps: PageDeps = {
    rt,
    tokens: new PageTokens(rt.clock),
    onJob: children.flatMap((p) => (p.onJob ? [p.onJob] : [])),
    onPortal: children.flatMap((p) => (p.onPortal ? [p.onPortal] : [])),
  };
  const app = new Hono<AppEnv>();
  app.route('/', homePage(rt));
  app.route('/', workspacePage(deps));
  for (const family of FAMILIES) {
    if (family.pages?.routes) {
      app.route('/', family.pages.routes(deps));
    }
  }
  app.route('/', restoreRoutes(rt, deps.tokens));
  return app;
}
