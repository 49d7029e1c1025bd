import pg from 'pg';
import { inject } from 'vitest';
import { createApp } from '../../src/app';
import type { Config } from '../../src/platform/config';
import type { Runtime } from '../../src/platform/runtime';
import { storeMeta } from '../../src/platform/store-meta';
import { closeRuntime, createRuntime } from '../../src/runtime';
import { Store } from '../../src/store';
import { leased } from '../../src/store/held';
import { readAll } from '../../src/store/pg/read';
import { checkSchemaName } from '../../src/store/pg/schema';
import { GLOBAL } from '../../src/store/types';
import type { V1Extension } from '../../src/v1';
import { disagreement, type Parsed, runningTest, type Settling, settles } from './test-store';

// The `nodes` project (vitest.config.ts, issue 40): a harness is two svc nodes in this process on
// one PostgreSQL schema, each with its own store, runtime and app, as `svc serve --store` started
// twice makes them; its requests go to each in turn (harness.ts). A rule that holds on one node
// and not across two fails the suite that states it. When the test (or file) ends, each node has
// read every scope again and must hold exactly what PostgreSQL holds.

export const ON_NODES = process.env.SVC_TEST_STORE === 'nodes';

/** Nodes a harness runs on: two, the least that shows a rule kept across nodes. */
const COUNT = 2;

export interface TestNode {
  rt: Runtime;
  app: ReturnType<typeof createApp>;
}

let made = 0;

/**
 * A harness's nodes, started on its first request. A harness a file shares between its tests is
 * checked and stopped when the test that started it ends, and started again on its next request:
 * a restart of every node, which the schema outlives.
 */
export class TestNodes implements Settling {
  readonly madeIn = runningTest();
  readonly schema = `n_${process.pid}_${++made}`;
  #opening: Promise<TestNode[]> | undefined;
  #nodes: TestNode[] | undefined;
  readonly #config: Config;
  readonly #extend: V1Extension | undefined;

  constructor(config: Config, extend?: V1Extension) {
    this.#config = config;
    this.#extend = extend;
  }

  /** The nodes, started if they are not. */
  open(): Promise<TestNode[]> {
    if (this.#opening === undefined) {
      settles(this);
      this.#opening = this.#start();
    }
    return this.#opening;
  }

  /** The nodes running; a harness's runtime is read only after its first request. */
  get running(): TestNode[] {
    if (this.#nodes === undefined) {
      throw new Error('the nodes start with the harness’s first request: none was sent yet');
    }
    return this.#nodes;
  }

  async #start(): Promise<TestNode[]> {
    const url = inject('pgHarnessUrl');
    const nodes: TestNode[] = [];
    for (let i = 0; i < COUNT; i++) {
      // Every workspace may leave memory (harness.ts lets them go): each is read through its door.
      const store = await Store.openPostgres(url, this.schema, Number.POSITIVE_INFINITY, `n${i}`);
      // As svc serve does: the store's meta is written once, under the global scope's lease.
      await leased(store, [GLOBAL], () => storeMeta(store));
      const rt = createRuntime(store, this.#config);
      nodes.push({ rt, app: createApp(rt, this.#extend) });
    }
    this.#nodes = nodes;
    return nodes;
  }

  /**
   * Each node, its scheduled work and sends stopped, reads every scope as the last node left it;
   * then each must hold what PostgreSQL holds. The nodes then stop.
   */
  async settle(): Promise<string | undefined> {
    const opening = this.#opening;
    if (opening === undefined) {
      return undefined;
    }
    const nodes = await opening;
    try {
      for (const { rt } of nodes) {
        rt.scheduler.stop();
        rt.deliveries.stop();
        await rt.scheduler.idle();
      }
      // Each node reads every scope as the last node left it first.
      return await disagreement(
        this.schema,
        () => this.#readAll(),
        nodes.map((n) => n.rt.store),
        async (store) => {
          await store.residency?.readGlobal();
          (await store.residency?.holdAll(store.scopes(), { global: true }))?.();
          await store.sync();
        },
      );
    } finally {
      this.#opening = undefined;
      this.#nodes = undefined;
      await Promise.all(nodes.map((n) => closeRuntime(n.rt)));
    }
  }

  async #readAll(): Promise<Parsed> {
    const client = new pg.Client({ connectionString: inject('pgHarnessUrl') });
    await client.connect();
    try {
      return (await readAll(client, checkSchemaName(this.schema))) as Parsed;
    } finally {
      await client.end();
    }
  }
}
