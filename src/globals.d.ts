// Replaced at build time by esbuild (scripts/build.mjs) and by vitest (vitest.config.ts).
declare const SVC_VERSION: string;
