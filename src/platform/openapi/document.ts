import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../context';

export const API_REVISION = '2.1.0';

const description = `The Workspace Operations REST API v1, served by svc, a local reference
implementation. Authenticate with an API key (\`svc_live_...\`) or an OAuth access token
(\`svc_oat_...\`), sent as \`Authorization: Bearer <token>\` or \`X-API-Key: <key>\`.`;

export function registerSecuritySchemes(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key or an OAuth access token',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'An API key',
  });
}

type Document = ReturnType<OpenAPIHono<AppEnv>['getOpenAPIDocument']>;

/** Generated once, on first request: building it costs more than a start-up can spare. */
export function documentFor(app: OpenAPIHono<AppEnv>): (origin: string) => Document {
  let doc: Document | undefined;
  return (origin) => {
    doc ??= app.getOpenAPIDocument({
      openapi: '3.0.3',
      info: { title: 'Workspace Operations REST API', version: API_REVISION, description },
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    });
    return { ...doc, servers: [{ url: `${origin}/v1` }] };
  };
}
