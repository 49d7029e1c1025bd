import { describe, expect, test } from 'vitest';
import { harness } from '../support/harness';

describe('GET /v1/openapi.json', () => {
  test('is public, revision 2.1.0, with both security schemes applied', async () => {
    const h = harness();
    const res = await h.app.request('/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, never>;
    expect(doc).toMatchObject({
      openapi: '3.0.3',
      info: { version: '2.1.0' },
      servers: [{ url: 'http://localhost/v1' }],
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { oauth2: ['read'] }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          oauth2: { type: 'oauth2' },
        },
      },
    });
  });

  test('documents every /v1 route the server answers, with the error envelope', async () => {
    const h = harness();
    const doc = (await (await h.app.request('/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const served = h.app.routes
      .filter(
        (r) => r.method !== 'ALL' && r.path.startsWith('/v1/') && r.path !== '/v1/openapi.json',
      )
      .map((r) => `${r.method.toLowerCase()} ${r.path.slice(3).replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(new Set(documented)).toEqual(new Set(served));
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const op of Object.values(ops)) {
        // The OAuth endpoints take an app's credentials, not a workspace's: no plan, no rate.
        expect(Object.keys(op.responses)).toEqual(
          expect.arrayContaining(
            path.startsWith('/oauth/') ? ['400', '401', '500'] : ['401', '402', '429', '500'],
          ),
        );
      }
    }
    expect(doc.components.schemas).toHaveProperty('Error');
  });

  test('every POST, PATCH and DELETE declares the optional Idempotency-Key header, 1 to 255 characters', async () => {
    const h = harness();
    const doc = (await (await h.app.request('/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: { $ref?: string }[] }>>;
      components: { parameters: Record<string, unknown> };
    };
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
    const ref = { $ref: '#/components/parameters/IdempotencyKey' };
    let writes = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [verb, op] of Object.entries(ops)) {
        const declared = (op.parameters ?? []).some((p) => p.$ref === ref.$ref);
        // spec, Endpoints: every POST, PATCH and DELETE, the OAuth endpoints' included.
        expect(declared, `${verb} ${path}`).toBe(['post', 'patch', 'delete'].includes(verb));
        writes += declared ? 1 : 0;
      }
    }
    expect(writes).toBeGreaterThan(10);
  });

  test('the control API documents itself too', async () => {
    const h = harness();
    const res = await h.app.request('/__admin/openapi.json');
    const doc = (await res.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/workspaces',
        '/workspaces/{id}',
        '/workspaces/{id}/keys',
        '/keys/{id}',
        '/clock',
        '/requests',
      ]),
    );
  });
});
