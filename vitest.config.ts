import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// Test files that replace a module with vi.mock: only a fresh module graph of their own sees it.
const MOCKING = ['test/listen/signature.test.ts'];

// Issue 39: the suites that go through the store through a harness run again on PostgreSQL
// (test/support/test-store.ts): the store's own, the robustness suite, every family's HTTP tests,
// the control API's. Where no cluster is given (SVC_TEST_PG), they run on memory alone;
// .ci/run gives one and sets SVC_REQUIRE_PG=1, so there they always run on both.
const ON_POSTGRES = [
  'admin',
  'bundle',
  'client',
  'contacts',
  'estimates',
  'faults',
  'files',
  'hail',
  'invoices',
  'jobs',
  'notes',
  'oauth',
  'payments',
  'pins',
  'platform',
  'resources',
  'robustness',
  'seed',
  'snapshots',
  'storm-lists',
  'tasks',
  'web',
  'webhooks',
].map((dir) => `test/${dir}/**/*.test.{ts,tsx}`);
const postgres = process.env.SVC_TEST_PG !== undefined || process.env.SVC_REQUIRE_PG === '1';

// Issue 40: the robustness suite, the webhook delivery tests, the faults' and the web app's run a
// third time, every harness two nodes on one PostgreSQL schema taking requests in turn
// (test/support/test-nodes.ts).
const ON_NODES = ['faults', 'robustness', 'web', 'webhooks'].map(
  (dir) => `test/${dir}/**/*.test.{ts,tsx}`,
);

export default defineConfig({
  // SVC_DIST: compaction runs in the built worker (dist/compact-worker.cjs), as svc does.
  define: {
    SVC_VERSION: JSON.stringify(pkg.version),
    SVC_DIST: JSON.stringify(fileURLToPath(new URL('./dist', import.meta.url))),
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Vitest's default leaves one core of two idle, and most files spend their time waiting on a
    // spawned svc, a socket or a timer: two at a time ran the suite in 605 s instead of 1,772 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        // A worker keeps the modules it imported for the next file (the app and its schemas took
        // 433 s to import file by file, 27 s so). Every app, store and server a test makes is its
        // own; nothing of a test lives in a module's state.
        test: {
          name: 'shared',
          include: ['test/**/*.test.{ts,tsx}', 'src/**/*.test.ts'],
          isolate: false,
          exclude: [...configDefaults.exclude, ...MOCKING],
        },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ON_POSTGRES,
                isolate: false,
                env: { SVC_TEST_STORE: 'postgres' },
                globalSetup: ['test/support/pg-global.ts'],
                setupFiles: ['test/support/pg-setup.ts'],
              },
            },
            {
              extends: true as const,
              test: {
                name: 'nodes',
                include: ON_NODES,
                isolate: false,
                env: { SVC_TEST_STORE: 'nodes' },
                globalSetup: ['test/support/pg-global.ts'],
                setupFiles: ['test/support/pg-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
