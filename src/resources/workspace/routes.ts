import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import { baseErrors, errorResponses, jsonResponse } from '../../platform/openapi/responses';

export const PingSchema = z
  .object({
    object: z.literal('workspace'),
    ok: z.boolean(),
    workspace_id: z.uuid(),
    workspace: z.string().nullable(),
    api_version: z.string(),
    key: z.object({ name: z.string(), access: z.enum(['write', 'read']) }),
  })
  .openapi('WorkspacePing');

const ping = (path: string) =>
  createRoute({
    method: 'get',
    path,
    operationId: path === '/ping' ? 'getPing' : 'getMe',
    summary: path === '/ping' ? 'Check the credential and see its workspace' : 'Alias of /ping',
    tags: ['Connection'],
    responses: {
      200: jsonResponse(PingSchema, 'The workspace this credential belongs to'),
      ...errorResponses(...baseErrors),
    },
  });

export function pingRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  for (const path of ['/ping', '/me']) {
    app.openapi(ping(path), (c) => {
      const { workspace, credential } = c.get('ctx');
      return c.json(
        {
          object: 'workspace' as const,
          ok: true,
          workspace_id: workspace.id,
          workspace: workspace.name,
          api_version: 'v1',
          key: { name: credential.name, access: credential.access },
        },
        200,
      );
    });
  }
  return app;
}
