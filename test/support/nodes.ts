import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { databaseForFile } from './pg';
import { type RoundRobin, startProxy } from './proxy';
import {
  bannerKeys,
  cleanup,
  type HttpReply,
  http,
  type Server,
  startServe,
  tempDir,
} from './spawn';

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

/** What a test file of several nodes uses: its nodes, and calls made on them. */
export interface NodesForFile {
  readonly n: Nodes;
  /** Each node's own address, in order. */
  urls(): [string, string];
  /** A control-API call on the node at `url`, with the admin token. */
  admin(url: string, path: string, method?: string, body?: unknown): Promise<HttpReply>;
  /** A workspace of the test's own, made on the first node: its id and write key. */
  workspace(name: string): Promise<{ id: string; key: string }>;
}

/** Two nodes on a database of the file's own, started before its tests and stopped after. */
export function nodesForFile(label: string, extra: string[] = []): NodesForFile {
  const db = databaseForFile(label);
  let started: Nodes | undefined;
  beforeAll(async () => {
    started = await startNodes(db.url, 'svc', 2, extra);
  }, 90_000);
  afterAll(async () => {
    await started?.stop();
    await cleanup();
  });
  const admin = (url: string, path: string, method = 'GET', body?: unknown) =>
    http(`${url}/__admin${path}`, { method, key: ADMIN_TOKEN, body });
  const self: NodesForFile = {
    get n() {
      if (started === undefined) {
        throw new Error('the nodes are not started');
      }
      return started;
    },
    urls: () => self.n.nodes.map((node) => node.url) as [string, string],
    admin,
    async workspace(name) {
      const ws = await admin(self.urls()[0], '/workspaces', 'POST', { name, profile: 'empty' });
      if (ws.status !== 201) {
        throw new Error(`no workspace: ${ws.status} ${JSON.stringify(ws.body)}`);
      }
      return { id: ws.body.id as string, key: ws.body.keys.write.key as string };
    },
  };
  return self;
}
