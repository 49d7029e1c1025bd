import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';

// The API reference is drawn by swagger-ui-dist's files, read at run time (svc runs offline: never
// a CDN), not bundled: 1.7 MB of script would otherwise be parsed at every start. The build copies
// them to dist/swagger-ui/, so svc's package needs no swagger-ui-dist (nor its install script);
// run from its sources, svc reads the installed package.

/** The files /docs needs, and the license they come under (Apache-2.0 asks for it and NOTICE). */
const FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  LICENSE: 'text/plain; charset=utf-8',
  NOTICE: 'text/plain; charset=utf-8',
};

export interface SwaggerUi {
  dir: string;
  version: string;
}

let found: SwaggerUi | null | undefined;

/** Where swagger-ui-dist is installed, or null when it is not (the page then says so). */
export function swaggerUi(): SwaggerUi | null {
  if (found !== undefined) {
    return found;
  }
  const copied = typeof SVC_DIST === 'string' ? join(SVC_DIST, 'swagger-ui') : undefined;
  if (copied !== undefined && existsSync(join(copied, 'package.json'))) {
    const { version } = JSON.parse(readFileSync(join(copied, 'package.json'), 'utf8')) as {
      version: string;
    };
    found = { dir: copied, version };
    return found;
  }
  try {
    // In the built CLI, dist/svc.cjs (and under vitest), __filename is this file; in any other
    // ESM run (tsx) the working directory, the project, is where node_modules is looked for.
    const from = typeof __filename === 'string' ? __filename : join(process.cwd(), 'svc.js');
    const load = createRequire(from);
    const manifest = load.resolve('swagger-ui-dist/package.json');
    const { version } = load(manifest) as { version: string };
    found = { dir: dirname(manifest), version };
  } catch {
    found = null;
  }
  return found;
}

const cache = new Map<string, Buffer>();

/** GET /docs/assets/<name>: only the files listed above, so no path can reach anything else. */
export function swaggerFileRoutes() {
  return new Hono<AppEnv>().get('/docs/assets/:name', async (c) => {
    const name = c.req.param('name');
    const type = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    const ui = swaggerUi();
    if (type === undefined || ui === null) {
      return c.text('not found', 404);
    }
    // The version is in the ETag: a file only changes when the package does.
    const etag = `"swagger-ui-dist-${ui.version}-${name}"`;
    if (c.req.header('If-None-Match') === etag) {
      return c.body(null, 304, { ETag: etag });
    }
    let body = cache.get(name);
    if (body === undefined) {
      body = await readFile(join(ui.dir, name));
      cache.set(name, body);
    }
    return c.body(new Uint8Array(body), 200, {
      'Content-Type': type,
      'Cache-Control': 'public, max-age=86400',
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
    });
  });
}
