import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { adminApp } from './admin';
import type { AppEnv } from './platform/app-env';
import { presentedWorkspace } from './platform/auth/middleware';
import { onError } from './platform/errors/handler';
import { cors } from './platform/http/cors';
import { durability } from './platform/http/durability';
import { setAnswerHeader } from './platform/http/headers';
import { health } from './platform/http/health';
import { notFoundHandler } from './platform/http/not-found';
import { assignRequestId } from './platform/http/request-id';
import { namesIn, whileHeld, writes } from './platform/http/residency';
import { SegmentRouter } from './platform/http/router';
import { validationHook } from './platform/openapi/validation';
import { stampAddress } from './platform/rate-limit';
import type { Runtime } from './platform/runtime';
import { FAMILIES } from './resources';
import { type V1Extension, v1App } from './v1';
import { webApp } from './web';
import { missingPage } from './web/ui/not-found';

/** Assembles the server: middleware order, routers, one error handler. Nothing else. */
export function createApp(rt: Runtime, extend?: V1Extension): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: validationHook,
    // Hono's own choice falls to its Trie router for svc's routes (see SegmentRouter).
    router: new SegmentRouter(),
  });
  // The request id, CORS on /v1, then the wait for the disk, as one layer: every layer costs
  // each request time.
  const origins = rt.config.cors;
  const config = rt.config;
  // spec, Limits: the rate-limit headers are on every response, a preflight's too.
  const stampRate = (c: Context<AppEnv>) => stampAddress(rt, c);
  const durable = durability(rt.store, stampRate);
  const residency = rt.store.residency;
  // Before every layer: a probe is answered even while the store refuses every other request.
  app.get('/__health', health(rt.store));
  // With several nodes, each answer names the node that gave it (decisions.md, Several nodes).
  const node = rt.store.cluster?.node;
  app.use('*', (c, next) => {
    assignRequestId(c);
    if (node !== undefined) {
      setAnswerHeader(c, 'X-Svc-Node', node);
    }
    if (!config.appUrlFromRequest) {
      c.set('appUrl', config.publicUrl);
    }
    const v1 = c.req.path.startsWith('/v1/');
    const preflight = origins !== null && v1 ? cors(c, origins, stampRate) : undefined;
    if (preflight) {
      return Promise.resolve(preflight);
    }
    // The control API and the web app find records by their ids alone: their workspaces first.
    // With several nodes, /v1 reads the global scope (its keys) as the last node left it first.
    if (residency === undefined || (v1 && residency.coordinate === undefined)) {
      return durable(c, next);
    }
    // Asked for only once the store is known to be available (durable may answer first).
    const holding = () => {
      if (!v1) {
        return residency.holdNamed(namesIn(c), writes(c) ? 'all' : undefined);
      }
      // The global scope and the workspace the credential names, in one query.
      const wsId = presentedWorkspace(rt, c);
      c.set('checkedWorkspace', wsId);
      return residency.holdAll(wsId === undefined ? [] : [wsId], { global: true });
    };
    return durable(c, () => whileHeld(holding(), next));
  });
  app.route('/v1', v1App(rt, extend));
  app.route('/__admin', adminApp(rt));
  for (const family of FAMILIES) {
    if (family.links) {
      app.route('/', family.links(rt));
    }
  }
  app.route('/', webApp(rt));
  const missing = notFoundHandler(app);
  // A browser that opens an address the web app does not have gets a page, not JSON.
  app.notFound(async (c) => missingPage(c, await missing(c)));
  app.onError(onError(rt.config.log));
  return app;
}
