// Builds the CLI into one CommonJS file, dist/svc.cjs: start-up cost is dominated by module loading, and one
// file loaded through a V8 code cache (see bin/svc.cjs) is several times faster than resolving
// hundreds of ESM modules. faker and zipcodes stay external: they are only needed when seeding.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// What both built files are: one minified CommonJS file for Node 20, with its source map.
const oneFile = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
};

await build({
  ...oneFile,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/svc.cjs',
  external: ['@faker-js/faker', 'zipcodes'],
  // bin/svc.cjs runs dist/svc.cjs as a vm script, which has no dynamic import: `import('zipcodes')`
  // (loaded on first use) must become a require.
  supported: { 'dynamic-import': false },
  // The compaction worker is found beside dist/svc.cjs (src/store/compactor.ts).
  define: { SVC_VERSION: JSON.stringify(pkg.version), SVC_DIST: '__dirname' },
});
// Compaction runs in a worker thread: its own small built file, so the thread loads the store's
// file code only, not the app.
await build({
  ...oneFile,
  entryPoints: ['src/store/compact-worker.ts'],
  outfile: 'dist/compact-worker.cjs',
});
rmSync('dist/svc.cjs.cache', { force: true });

// Compile once with the app built, so the first `svc serve` already starts from V8's cache.
const { spawnSync } = await import('node:child_process');
const warm = spawnSync(process.execPath, ['bin/svc.cjs', 'warm'], { stdio: 'inherit' });
if (warm.status !== 0) {
  process.exit(warm.status ?? 1);
}
