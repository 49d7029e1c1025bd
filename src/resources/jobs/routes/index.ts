import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../platform/context';
import type { Runtime } from '../../../runtime';
import { jobChildRoutes } from './children';
import { jobRecordRoutes } from './records';

export function jobRoutes(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  app.route('/', jobRecordRoutes(rt));
  app.route('/', jobChildRoutes(rt));
  return app;
}
