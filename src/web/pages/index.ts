import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import type { PageDeps } from '../../platform/family';
import { PageTokens, pageSecret } from '../../platform/http/page-tokens';
import type { Runtime } from '../../platform/runtime';
import { FAMILIES, jobChildren } from '../../resources';
import type { Asset } from '../ui/assets';
import { homePage } from './home';
import { restoreRoutes } from './restore';
import { RECORDS_CSS } from './style';
import { workspacePage } from './workspace';

// The pages of the web app outside the inspector and the docs: the dashboard at the server root,
// a workspace's page, and every family's pages (Family.pages, found through the registry): the
// page a record's `url` opens, drawn through its presenters so it shows what GET /v1 answers, and
// the homeowner's pages. The one action here, Restore, goes through the control API's service.

export const PAGES_ASSETS: Asset[] = [{ name: 'records.css', type: 'text/css', body: RECORDS_CSS }];

export function pageRoutes(rt: Runtime) {
  const children = jobChildren().flatMap((f) => (f.pages ? [f.pages] : []));
  const deps: PageDeps = {
    rt,
    tokens: new PageTokens(rt.clock, pageSecret(rt)),
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
