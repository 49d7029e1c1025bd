import { describe, expect, test } from 'vitest';
import { harness } from '../support/harness';

describe('GET /ping', () => {
  test('reports the workspace and the access of the key', async () => {
    const h = harness();
    const ws = await h.workspace({ name: 'Ping Roofing' });
    const write = await ws.api.get('/ping');
    expect(write.status).toBe(200);
    expect(write.body).toMatchObject({
      object: 'workspace',
      ok: true,
      workspace_id: ws.id,
      workspace: 'Ping Roofing',
      api_version: 'v1',
      key: { access: 'write' },
    });
    const read = await ws.read.get('/me');
    expect(read.body.key.access).toBe('read');
  });
});
