// Bundles the CLI into one CommonJS file: start-up cost is dominated by module loading, and one
// file loaded through a V8 code cache (see bin/svc.cjs) is several times faster than resolving
// hundreds of ESM modules. faker and zipcodes stay external: they are only needed when seeding.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/svc.cjs',
  external: ['@faker-js/faker', 'zipcodes'],
  // bin/svc.cjs runs the bundle as a vm script, which has no dynamic import: `import('zipcodes')`
  // (loaded on first use) must become a require.
  supported: { 'dynamic-import': false },
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  // The compaction worker is found beside the bundle (src/store/compactor.ts).
  define: { SVC_VERSION: JSON.stringify(pkg.version), SVC_DIST: '__dirname' },
  logLevel: 'warning',
});
// Compaction runs in a worker thread: its own small bundle, so the thread loads the store's
// file code only, not the app.
await build({
  entryPoints: ['src/store/compact-worker.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/compact-worker.cjs',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
rmSync('dist/svc.cjs.cache', { force: true });

// Compile once with the app built, so the first `svc serve` already starts from V8's cache.
const { spawnSync } = await import('node:child_process');
const warm = spawnSync(process.execPath, ['bin/svc.cjs', 'warm'], { stdio: 'inherit' });
if (warm.status !== 0) {
  process.exit(warm.status ?? 1);
}
