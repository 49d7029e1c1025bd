// Builds the CLI into one CommonJS file, dist/svc.cjs: start-up cost is dominated by module loading, and one
// file loaded through a V8 code cache (see bin/svc.cjs) is several times faster than resolving
// hundreds of ESM modules. faker (its en_US locale) and zipcodes, needed only when seeding, are
// files of their own beside it (dist/faker.cjs, dist/zipcodes.cjs), required when first used: so
// svc's package depends on nothing at run time, and installs offline.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

/** What seeding needs, each its own file in dist/, which dist/svc.cjs requires on first use. */
const BESIDE = { '@faker-js/faker/locale/en_US': './faker.cjs', zipcodes: './zipcodes.cjs' };
const seedingBeside = {
  name: 'seeding-beside',
  setup(b) {
    b.onResolve({ filter: /^(@faker-js\/faker\/locale\/en_US|zipcodes)$/ }, (args) => ({
      path: BESIDE[args.path],
      external: true,
    }));
  },
};
for (const [name, file] of Object.entries(BESIDE)) {
  await build({
    ...oneFile,
    sourcemap: false,
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: '.' },
    outfile: join('dist', file),
  });
}

await build({
  ...oneFile,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/svc.cjs',
  plugins: [seedingBeside],
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
// The library (src/lib, the package's `startSvc`): a small client of svc's own. Its in-process
// server is dist/svc.cjs itself, required when asked for, so the app is built once.
const inProcessIsSvc = {
  name: 'in-process-is-svc',
  setup(b) {
    b.onResolve({ filter: /^\.\/in-process$/ }, () => ({ path: './svc.cjs', external: true }));
  },
};
await build({
  ...oneFile,
  entryPoints: ['src/lib/index.ts'],
  outfile: 'dist/lib.cjs',
  supported: { 'dynamic-import': false },
  define: { SVC_VERSION: JSON.stringify(pkg.version), SVC_DIST: '__dirname' },
  plugins: [inProcessIsSvc],
});
writeFileSync(
  'dist/lib.mjs',
  "import lib from './lib.cjs';\n\nexport const { startSvc, SvcError } = lib;\n",
);
// The declarations: the public types as they are (types alone, imported from nowhere), and the
// two values. One file for `import` (dist/lib.d.ts) and one for `require` (dist/lib.d.cts).
const declarations = `${readFileSync('src/lib/types.ts', 'utf8')}
/** The control API refused a call: \`status\` and the envelope's \`code\` and \`field\`. */
export declare class SvcError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | null;
  constructor(status: number, code: string, message: string, field: string | null);
}

/** Starts svc; answers it with a workspace of its own, made for this start. */
export declare function startSvc(options?: StartOptions): Promise<Svc>;
`;
writeFileSync('dist/lib.d.ts', declarations);
writeFileSync('dist/lib.d.cts', declarations);

// swagger-ui's files for /docs (src/web/docs/swagger-files.ts), so the package needs no
// swagger-ui-dist installed beside it.
const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
rmSync('dist/swagger-ui', { recursive: true, force: true });
mkdirSync('dist/swagger-ui', { recursive: true });
for (const name of [
  'package.json',
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'LICENSE',
  'NOTICE',
]) {
  copyFileSync(join(swaggerUi, name), join('dist/swagger-ui', name));
}

rmSync('dist/svc.cjs.cache', { force: true });

// Compile once with the app built, so the first `svc serve` already starts from V8's cache.
const { spawnSync } = await import('node:child_process');
const warm = spawnSync(process.execPath, ['bin/svc.cjs', 'warm'], { stdio: 'inherit' });
if (warm.status !== 0) {
  process.exit(warm.status ?? 1);
}
