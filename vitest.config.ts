import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  // SVC_DIST: compaction runs in the built worker (dist/compact-worker.cjs), as svc does.
  define: {
    SVC_VERSION: JSON.stringify(pkg.version),
    SVC_DIST: JSON.stringify(fileURLToPath(new URL('./dist', import.meta.url))),
  },
  test: {
    include: ['test/**/*.test.{ts,tsx}', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
