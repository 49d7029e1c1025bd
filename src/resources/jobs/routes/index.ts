import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv, Runtime } from '../../../context';
import { jobChildRoutes } from './children';
import { jobRecordRoutes } from './records';

export function jobRoutes(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  app.route('/', jobRecordRoutes(rt));
  app.route('/', jobChildRoutes(rt));
  return app;
}
