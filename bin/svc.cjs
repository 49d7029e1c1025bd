#!/usr/bin/env node
'use strict';
// Loads dist/svc.cjs through a V8 code cache kept beside it: compiling it is most of
// svc's start-up cost, and the cache makes `svc serve` answer within a few milliseconds of a
// bare Node process (bench/startup.ts measures it).
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { Module, createRequire } = require('node:module');

const compiled = path.join(__dirname, '..', 'dist', 'svc.cjs');
const cacheFile = `${compiled}.cache`;

let source;
try {
  source = fs.readFileSync(compiled, 'utf8');
} catch {
  process.stderr.write(
    'svc: dist/svc.cjs is missing; run `npm install` or `npm run build` first\n',
  );
  process.exit(1);
}
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {}

const script = new vm.Script(Module.wrap(source), { filename: compiled, cachedData });
const mod = { exports: {} };
script
  .runInThisContext()
  .call(mod.exports, mod.exports, createRequire(compiled), mod, compiled, path.dirname(compiled));

const cacheIsStale = cachedData === undefined || script.cachedDataRejected === true;
function saveCodeCache() {
  if (!cacheIsStale) {
    return;
  }
  try {
    fs.writeFileSync(cacheFile, script.createCachedData());
  } catch {
    // a read-only install simply runs without the cache
  }
}

mod.exports.main(process.argv, { onWarm: saveCodeCache });
