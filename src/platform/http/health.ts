import type { Context } from 'hono';
import type { Store } from '../../store';

// GET /__health (DESIGN.md, Shared servers): what a load balancer probes, with no credential,
// whatever the admin token: 200 {"ok": true} while this node can serve, 503 {"ok": false} while it
// cannot (its PostgreSQL store being read back after a lost commit), so traffic goes elsewhere.
// With several nodes it names the node that answered, as every answer does.

export const health = (store: Store) => (c: Context) => {
  c.header('Cache-Control', 'no-store');
  const node = store.cluster?.node;
  if (node !== undefined) {
    c.header('X-Svc-Node', node);
  }
  if (store.available) {
    return c.json({ ok: true });
  }
  c.header('Retry-After', '1');
  return c.json({ ok: false }, 503);
};
