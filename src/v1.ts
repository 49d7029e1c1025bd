import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Next } from 'hono';
import { catalogue, DELIVERIES } from './events';
import { oauthRoutes } from './oauth';
import type { AppEnv } from './platform/app-env';
import { authenticate, requirePlan } from './platform/auth';
import type { Family, RouteDeps, SubList } from './platform/family';
import { applyFault, routeMethods } from './platform/faults';
import { limitBodies } from './platform/http/body-limit';
import { whileHeld, writes } from './platform/http/residency';
import { documentFor, registerSecuritySchemes } from './platform/openapi/document';
import { validationHook } from './platform/openapi/validation';
import { rateLimit, rateLimitHeaders } from './platform/rate-limit';
import { logRequests } from './platform/request-log';
import type { Runtime } from './platform/runtime';
import { FAMILIES, jobChildren } from './resources';

/** Adds routes to /v1 after the real ones (tests mount fixture resources this way). */
export type V1Extension = (v1: OpenAPIHono<AppEnv>, rt: Runtime) => void;

/** The public API, `{base_url}`: request checks (credential, rate, plan, idempotency), then routes. */
export function v1App(rt: Runtime, extend?: V1Extension): OpenAPIHono<AppEnv> {
  const v1 = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  registerSecuritySchemes(v1);
  const document = documentFor(
    v1,
    DELIVERIES.map(({ def, name, schema }) => ({ ...def, name, schema })),
  );
  v1.use('*', rateLimitHeaders(rt));
  v1.get('/openapi.json', (c) => c.json(document(new URL(c.req.url).origin)));

  // Before anything reads the body, so that everything after it reads it through the limit.
  v1.use('*', limitBodies());
  v1.use('*', logRequests(rt, rt.requestLog));
  // spec, OAuth: the token and revoke endpoints take the app's own credentials, not a workspace's,
  // so they answer before the credential check (and the plan and the rate that hang on it).
  v1.route('/', oauthRoutes(rt));
  // Credential, rate, plan, then the idempotency key, in one layer: every layer costs a read, and
  // none of these waits unless the request carries a key. The rate comes before the plan: every
  // request made with a key counts, a 402 included (spec, Limits: 120 a minute per key).
  const idempotent = rt.idempotency.middleware();
  // A faulted 405 says Allow with the path's methods, read from the routes added below.
  const methodsAt = routeMethods(v1, '/v1');
  // decisions.md, Faults: an injected fault is decided after those checks and before the key and
  // the route, so a faulted call changes nothing and its retry with the same key runs for real.
  const residency = rt.store.residency;
  v1.use('*', (c, next) => {
    authenticate(rt, c);
    const counted = rateLimit(rt, c);
    return counted === undefined ? door(c, next) : counted.then(() => door(c, next));
  });
  const door = (c: Context<AppEnv>, next: Next) => {
    requirePlan(c);
    const go = () =>
      rt.faults.active
        ? applyFault(rt.faults, c, methodsAt).then((faulted) => faulted ?? idempotent(c, next))
        : idempotent(c, next); // the common case waits on nothing more
    // On PostgreSQL, the credential's workspace is loaded first (store/residency.ts), and with
    // several nodes, leased by a write (store/pg/cluster.ts).
    if (residency === undefined) {
      return go();
    }
    const wsId = c.get('ctx').workspace.id;
    const checked = c.get('checkedWorkspace') === wsId;
    return whileHeld(
      residency.holdAll([wsId], { lease: writes(c) ? [wsId] : [], turn: true, checked }),
      go,
    );
  };

  const listsOf = (families: readonly Family[], lists: (f: Family) => readonly SubList[]) =>
    families.flatMap((f) =>
      lists(f).flatMap((list) => (f.records ? [{ ...list, records: f.records }] : [])),
    );
  const deps: RouteDeps = {
    ...rt,
    events: catalogue,
    jobLists: listsOf(jobChildren(), (f) => f.onJob?.lists ?? []),
    contactLists: listsOf(FAMILIES, (f) => f.onContact?.lists ?? []),
  };
  for (const family of FAMILIES) {
    if (family.routes) {
      v1.route('/', family.routes(deps));
    }
  }
  extend?.(v1, rt);
  return v1;
}
