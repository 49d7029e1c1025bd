import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../platform/app-env';
import type { RouteDeps } from '../../../platform/family';
import { jobListRoutes } from './lists';
import { jobRecordRoutes } from './one';

export function jobRoutes(deps: RouteDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.route('/', jobRecordRoutes(deps));
  app.route('/', jobListRoutes(deps));
  return app;
}
