import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { STYLE } from './style';

/** A script or stylesheet of one area of the web app, served at `/_app/<name>`. */
export interface Asset {
  name: string;
  type: 'text/css' | 'text/javascript';
  body: string;
}

/**
 * Serves the web app's own assets from memory (they are bundled into svc: nothing comes from a
 * CDN). Each is cached for an hour; its text only changes with svc's version.
 */
export function assetRoutes(extra: readonly Asset[]) {
  const all: Asset[] = [{ name: 'style.css', type: 'text/css', body: STYLE }, ...extra];
  const app = new Hono<AppEnv>();
  for (const asset of all) {
    app.get(`/_app/${asset.name}`, (c) =>
      c.body(asset.body, 200, {
        'Content-Type': `${asset.type}; charset=utf-8`,
        'Cache-Control': 'public, max-age=3600',
        'X-Content-Type-Options': 'nosniff',
      }),
    );
  }
  return app;
}
