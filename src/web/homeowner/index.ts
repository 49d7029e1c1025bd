import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { PageTokens } from '../../platform/http/page-tokens';
import type { Platform } from '../../platform/platform';
import type { Asset } from '../ui/assets';
import { estimateRoutes } from './estimate-routes';
import { payRoutes } from './pay-routes';
import { pdfRoutes } from './pdf-routes';
import { portalRoutes } from './portal';
import { PortalIndex } from './portal-index';
import { HOMEOWNER_STYLE } from './style';

// The homeowner's pages (DESIGN.md, the web app): a job's portal_url, an estimate's view_url, an
// invoice's payment_url and the documents' PDFs. They act through the same services as the
// control API's app-side actions, so the same rules hold and the same events fire.

export const HOMEOWNER_ASSETS: Asset[] = [
  { name: 'homeowner.css', type: 'text/css', body: HOMEOWNER_STYLE },
];

export function homeownerRoutes(rt: Platform) {
  const tokens = new PageTokens(rt.clock);
  const web = new Hono<AppEnv>();
  web.route('/', portalRoutes(rt, new PortalIndex(rt.store)));
  web.route('/', estimateRoutes(rt, tokens));
  web.route('/', payRoutes(rt, tokens));
  web.route('/', pdfRoutes(rt));
  return web;
}
