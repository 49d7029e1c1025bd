import { describe, expect, test } from 'vitest';
import { Contract } from '../support/contract';
import { harness } from '../support/harness';

// The contract check guards every other test; it must itself be able to fail.
describe('the OpenAPI contract check', () => {
  const load = async () => {
    const h = harness();
    const doc = await (await h.app.request('/v1/openapi.json')).json();
    return Contract.load(doc as object);
  };
  const ping = {
    method: 'GET',
    path: '/ping',
    query: {},
    requestHeaders: {},
    requestBody: undefined,
    responseHeaders: { 'content-type': 'application/json' },
  };

  test('a response missing a documented field is a violation', async () => {
    const contract = await load();
    const problems = contract.check({ ...ping, status: 200, responseBody: { ok: true } });
    expect(problems.join()).toMatch(/violates the document/);
  });

  test('a status the operation does not document is a violation', async () => {
    const contract = await load();
    const problems = contract.check({ ...ping, status: 418, responseBody: {} });
    expect(problems.length).toBeGreaterThan(0);
  });

  test('a well-formed answer passes', async () => {
    const contract = await load();
    const problems = contract.check({
      ...ping,
      status: 200,
      responseBody: {
        object: 'workspace',
        ok: true,
        workspace_id: '2125686a-3e0a-4682-a3cf-5bee102e16f8',
        workspace: 'x',
        api_version: 'v1',
        key: { name: 'k', access: 'read' },
      },
    });
    expect(problems).toEqual([]);
  });
});
