import { Hono } from 'hono';
import { consentRoutes } from '../oauth';
import type { AppEnv } from '../platform/app-env';
import type { Runtime } from '../platform/runtime';
import { DOCS_ASSETS, docsRoutes } from './docs';
import { HOMEOWNER_ASSETS } from './homeowner';
import { INSPECTOR_ASSETS, inspectorRoutes } from './inspector';
import { PAGES_ASSETS, pageRoutes } from './pages';
import { signIn } from './sign-in';
import { type Asset, assetRoutes } from './ui/assets';
import { pageHeaders } from './ui/guard';

// The web app at {app_url}, the server root (DESIGN.md): the record pages and the homeowner pages
// (each family's, found through the registry), the inspector and the docs. Each area is a folder
// here that exports its routes and its assets; every action goes through the same services as
// the API and the control API.
const ASSETS: Asset[] = [...HOMEOWNER_ASSETS, ...DOCS_ASSETS, ...PAGES_ASSETS, ...INSPECTOR_ASSETS];

export function webApp(rt: Runtime) {
  const web = new Hono<AppEnv>();
  const { door, routes } = signIn(rt);
  web.use('*', pageHeaders);
  web.use('*', door);
  web.route('/', routes);
  web.route('/', assetRoutes(ASSETS));
  web.route('/', consentRoutes(rt));
  web.route('/', docsRoutes());
  web.route('/', pageRoutes(rt));
  web.route('/', inspectorRoutes(rt));
  return web;
}
