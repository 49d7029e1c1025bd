import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env';
import { typedNullables } from './nullable';
import { type Delivered, registerDeliveries, webhooksSection } from './webhooks';

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
  // spec, Authentication 5: the authorization-code flow; its URLs are made absolute per origin.
  app.openAPIRegistry.registerComponent('securitySchemes', 'oauth2', {
    type: 'oauth2',
    description:
      'OAuth 2.0 for an app that connects many workspaces; the access token (`svc_oat_`) is ' +
      'sent as `Authorization: Bearer <token>`',
    flows: {
      authorizationCode: {
        authorizationUrl: AUTHORIZE_PATH,
        tokenUrl: TOKEN_PATH,
        refreshUrl: TOKEN_PATH,
        scopes: OAUTH_SCOPES,
      },
    },
  });
}

const AUTHORIZE_PATH = '/oauth/authorize';
const TOKEN_PATH = '/v1/oauth/token';
const OAUTH_SCOPES = {
  read: 'Read the workspace, and subscribe to webhooks',
  write: 'Read and change the workspace (the default)',
};

type Document = ReturnType<OpenAPIHono<AppEnv>['getOpenAPIDocument']>;

/**
 * Generated once, on first request: building it costs more than a start-up can spare. The
 * deliveries svc sends are described beside the operations (`x-webhooks`).
 */
export function documentFor(
  app: OpenAPIHono<AppEnv>,
  deliveries: readonly Delivered[] = [],
): (origin: string) => Document {
  registerDeliveries(app, deliveries);
  let doc: Document | undefined;
  return (origin) => {
    doc ??= withWriteScope(
      withIdempotencyKey(
        typedNullables({
          ...app.getOpenAPIDocument({
            openapi: '3.0.3',
            info: { title: 'Workspace Operations REST API', version: API_REVISION, description },
            security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { oauth2: ['read'] }],
            tags: TAGS,
          }),
          'x-webhooks': webhooksSection(deliveries),
        }),
      ),
    );
    return { ...withOAuthUrls(doc, origin), servers: [{ url: `${origin}/v1` }] };
  };
}

/** The document's groups of operations, in the spec's order. */
const TAGS = [
  { name: 'Connection', description: 'Check a credential and see its workspace' },
  { name: 'Lookups', description: 'Users, pipelines and stages, the event catalogue' },
  { name: 'Jobs', description: 'Jobs on pipeline boards, and what is on each' },
  { name: 'Contacts', description: 'Homeowners, adjusters and the other people of the work' },
  { name: 'Tasks and appointments', description: 'Tasks; an appointment is a task with a type' },
  { name: 'Estimates', description: 'Estimates and their templates' },
  { name: 'Invoices', description: 'Invoices for a job or a contact' },
  { name: 'Payments', description: 'Payments and refunds on a job and its invoices' },
  { name: 'Notes', description: 'Notes on a job' },
  { name: 'Files', description: 'Files and photos: uploads and signed download links' },
  { name: 'Pins', description: 'Door knocks (canvassing pins)' },
  {
    name: 'Storm lists',
    description: 'Storm lists built in the app, and their properties (read only)',
  },
  { name: 'Hail', description: 'Hail and damaging-wind history at a US address or point' },
  { name: 'Webhooks', description: 'Subscriptions, samples, and the deliveries svc sends' },
  { name: 'OAuth', description: 'Trade codes and refresh tokens for access tokens; revoke them' },
];

const WRITES = ['post', 'patch', 'delete'] as const;

// spec, Endpoints: "On POST, PATCH and DELETE the optional header Idempotency-Key applies". The
// idempotency middleware serves every write, and the OAuth endpoints keep keys of their own
// (src/oauth/idempotency.ts), so the document says so once for all of them.
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

// spec, Authentication 3 and 5: scope=read reads and subscribes to webhooks; any other write needs
// scope=write. Operations that set their own security (the OAuth endpoints: none) keep it.
function withWriteScope(doc: Document): Document {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const verb of WRITES) {
      const op = item?.[verb];
      const subscribing = path === '/webhooks' && verb === 'post';
      if (op && op.security === undefined && !subscribing) {
        op.security = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { oauth2: ['write'] }];
      }
    }
  }
  return doc;
}

// OpenAPI 3.0 wants the flow's URLs absolute: the consent page is at {app_url}, the token
// endpoint under {base_url}, both on the origin the document is read from.
function withOAuthUrls(doc: Document, origin: string): Document {
  const scheme = doc.components?.securitySchemes?.oauth2;
  if (!scheme || '$ref' in scheme || scheme.type !== 'oauth2') {
    return doc;
  }
  const tokenUrl = `${origin}${TOKEN_PATH}`;
  return {
    ...doc,
    components: {
      ...doc.components,
      securitySchemes: {
        ...doc.components?.securitySchemes,
        oauth2: {
          ...scheme,
          flows: {
            authorizationCode: {
              authorizationUrl: `${origin}${AUTHORIZE_PATH}`,
              tokenUrl,
              refreshUrl: tokenUrl,
              scopes: OAUTH_SCOPES,
            },
          },
        },
      },
    },
  };
}
