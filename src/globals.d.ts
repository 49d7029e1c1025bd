// Replaced at build time by esbuild (scripts/build.mjs) and by vitest (vitest.config.ts).
declare const SVC_VERSION: string;
// Where the built bundle lies (its compaction worker beside it): esbuild sets it to the bundle's
// __dirname, vitest to the repo's dist/; undefined when svc runs from its sources (tsx).
declare const SVC_DIST: string | undefined;
