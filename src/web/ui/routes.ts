import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import type { PageDeps } from '../../platform/family';

/** A family's pages made of several sets of routes (its record page, a homeowner's page, a PDF). */
export const pagesOf =
  (...parts: ((deps: PageDeps) => Hono<AppEnv>)[]) =>
  (deps: PageDeps): Hono<AppEnv> => {
    const app = new Hono<AppEnv>();
    for (const part of parts) {
      app.route('/', part(deps));
    }
    return app;
  };
