import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../context';

export const API_REVISION = '2.1.0';

const description = `The Workspace Operations REST API v1, served by svc, a local reference
implementation. Authenticate with an API key (\`svc_live_...\`) or an OAuth access token
(\`svc_oat_...\`), sent as \`Authorization: Bearer <token>\` or \`X-API-Key: <key>\`.`;

export function registerSecuritySchemes(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent('parameters', 'IdempotencyKey', {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a write safe to retry: the same key and request within 24 hours answers the first ' +
      'result again, with `Idempotent-Replayed: true`',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  });
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
    doc ??= withIdempotencyKey(
      app.getOpenAPIDocument({
        openapi: '3.0.3',
        info: { title: 'Workspace Operations REST API', version: API_REVISION, description },
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
      }),
    );
    return { ...doc, servers: [{ url: `${origin}/v1` }] };
  };
}

const WRITES = ['post', 'patch', 'delete'] as const;

// spec, Endpoints: "On POST, PATCH and DELETE the optional header Idempotency-Key applies". The
// idempotency middleware serves every write, so the document says so once for all of them.
function withIdempotencyKey(doc: Document): Document {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const verb of WRITES) {
      const op = item?.[verb];
      if (op) {
        op.parameters = [
          ...(op.parameters ?? []),
          { $ref: '#/components/parameters/IdempotencyKey' },
        ];
      }
    }
  }
  return doc;
}
