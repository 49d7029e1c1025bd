import { Hono } from 'hono';
import type { AppEnv } from '../platform/context';
import type { Runtime } from '../runtime';
import { docsRoutes } from './docs';
import { homeRoutes } from './home';
import { oauthRoutes } from './oauth';
import { type Asset, assetRoutes } from './ui/assets';
import { pageHeaders } from './ui/guard';

// The web app at {app_url}, the server root (DESIGN.md): the record pages, the homeowner pages,
// the inspector and the docs. Each area is a folder here that exports its routes and its assets;
// every action goes through the same services as the API and the control API.
const ASSETS: Asset[] = [];

export function webApp(rt: Runtime) {
  const web = new Hono<AppEnv>();
  web.use('*', pageHeaders);
  web.route('/', assetRoutes(ASSETS));
  web.route('/', oauthRoutes(rt));
  web.route('/', docsRoutes());
  web.route('/', homeRoutes(rt));
  return web;
}
