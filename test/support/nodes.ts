import { join } from 'node:path';
import { type RoundRobin, startProxy } from './proxy';
import { bannerKeys, type Server, startServe, tempDir } from './spawn';

// Several svc nodes on one PostgreSQL schema behind a round-robin proxy (issue 40): what the
// cross-node tests call, through the proxy or each node in turn.

export const ADMIN_TOKEN = 'nodes-admin-token-0123456789';

export interface Nodes {
  nodes: Server[];
  proxy: RoundRobin;
  /** The demo workspace's keys, as every node's banner shows them. */
  keys: { write: string; read: string };
  /** Starts node `i` again (after a stop or a kill), on a port of its own. */
  restart(i: number): Promise<Server>;
  stop(): Promise<void>;
}

/** `count` nodes serving `schema` of `url`, seeded with the demo workspace by the first. */
export async function startNodes(
  url: string,
  schema: string,
  count = 2,
  extra: string[] = [],
): Promise<Nodes> {
  const dir = await tempDir();
  const start = (i: number) =>
    startServe(
      join(dir, `node-${i}`, 'node.json'),
      ['--store', url, '--store-schema', schema, '--admin-token', ADMIN_TOKEN, ...extra],
      { env: { SVC_NODE_NAME: `node-${i}` }, timeoutMs: 30_000 },
    );
  // The first seeds a new schema; the others, started with it, find it seeded.
  const nodes: Server[] = [await start(0)];
  nodes.push(...(await Promise.all(Array.from({ length: count - 1 }, (_, i) => start(i + 1)))));
  const keys = bannerKeys(nodes[0]?.stdout() ?? '');
  if (keys === undefined) {
    throw new Error('the first node showed no demo keys');
  }
  const proxy = await startProxy(nodes.map((n) => n.url));
  return {
    nodes,
    proxy,
    keys,
    async restart(i) {
      const node = await start(i);
      nodes[i] = node;
      proxy.backends = nodes.map((n) => n.url);
      return node;
    },
    async stop() {
      await proxy.close();
      await Promise.all(nodes.map((n) => n.stop().catch(() => undefined)));
    },
  };
}
