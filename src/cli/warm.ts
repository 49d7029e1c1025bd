import { createApp } from '../app';
import { mintApiKey } from '../platform/auth';
import { newId } from '../platform/ids';
import { createRuntime, defaultConfig } from '../runtime';
import { Store } from '../store';

// The V8 code cache holds what has been compiled when it is saved; running the paths a first
// request takes (an authenticated read, a refusal, the document) puts them in it.
export async function warmUp(): Promise<void> {
  const store = Store.memory();
  const rt = createRuntime(store, defaultConfig({ log: () => {} }));
  const now = rt.clock.iso();
  const key = store.transaction((tx) => {
    const id = newId();
    tx.global.put('workspaces', {
      id,
      object: 'workspace',
      name: 'Warm-up',
      subscription_active: true,
      timezone: 'America/Chicago',
      created_at: now,
      updated_at: now,
    });
    return mintApiKey(tx.global, { workspaceId: id, name: 'warm', access: 'write', now }).key;
  });
  const app = createApp(rt);
  const auth = { Authorization: `Bearer ${key}` };
  for (const path of [
    '/v1/ping',
    '/v1/users',
    '/v1/stages',
    '/v1/pipelines',
    '/v1/estimate_templates',
  ]) {
    await app.request(path, { headers: auth });
  }
  await app.request('/v1/ping');
  await app.request('/v1/openapi.json');
  await app.request('/__admin/workspaces');
}
