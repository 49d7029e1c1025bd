import { spawnSync } from 'node:child_process';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanup, tempDir } from '../support/spawn';

// Issue 38: `npm pack` makes a package that, installed into an empty project offline (no build,
// no development dependencies), gives `npx svc` and the library, typed, for ESM and CommonJS; the
// vitest globalSetup example of docs/guides/testing.md runs against it.

const ROOT = join(import.meta.dirname, '..', '..');
const MODULES = join(ROOT, 'node_modules');

/** A child's environment without the outer vitest's variables, which would confuse an inner one. */
const cleanEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'),
  );

function run(cmd: string, args: string[], cwd: string, timeout = 120_000) {
  const res = spawnSync(cmd, args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout });
  return { code: res.status, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
}

let project = '';
let packed = { filename: '', size: 0, files: [] as { path: string }[] };

beforeAll(async () => {
  // `npm pack` as the repository runs it, in a copy of what it packs: its prepack builds dist/
  // first, which `npm test` has done already (and other test files are running svc from it), so
  // the copy's prepack keeps the manifest step alone.
  const repo = await tempDir();
  for (const path of [
    'package.json',
    'README.md',
    'bin',
    'dist',
    'docs',
    'scripts/pack-manifest.mjs',
  ]) {
    await cp(join(ROOT, path), join(repo, path), { recursive: true });
  }
  const manifest = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8'));
  expect(manifest.scripts.prepack).toBe('node scripts/build.mjs && node scripts/pack-manifest.mjs');
  manifest.scripts.prepack = 'node scripts/pack-manifest.mjs';
  await writeFile(join(repo, 'package.json'), JSON.stringify(manifest, null, 2));
  const dest = await tempDir();
  const pack = run('npm', ['pack', '--json', '--pack-destination', dest], repo);
  expect(pack.code, pack.stderr).toBe(0);
  [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')));
  expect(JSON.parse(await readFile(join(repo, 'package.json'), 'utf8'))).toEqual(manifest);
  project = await tempDir();
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
  );
  const install = run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', join(dest, packed.filename)],
    project,
  );
  expect(install.code, install.stdout + install.stderr).toBe(0);
  expect(install.stdout + install.stderr).not.toMatch(/allowScripts|install scripts/i);
}, 240_000);

afterAll(cleanup);

describe('the packed package', () => {
  test('holds what runs svc and nothing of the repository besides: no tests, benches, sources or maps', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'bin/svc.cjs',
        'dist/svc.cjs',
        'dist/lib.cjs',
        'dist/lib.mjs',
        'dist/lib.d.ts',
        'dist/lib.d.cts',
        'dist/faker.cjs',
        'dist/zipcodes.cjs',
        'dist/swagger-ui/swagger-ui-bundle.js',
        'package.json',
        'README.md',
        'docs/guides/testing.md',
      ]),
    );
    for (const path of paths) {
      expect(path).not.toMatch(
        /^(test|bench|src|scripts|examples)\/|\.map$|\.png$|\.ts$(?<!\.d\.ts)/,
      );
    }
  });

  test('depends on nothing at run time: the install is the package alone', async () => {
    const pkg = JSON.parse(
      await readFile(join(project, 'node_modules', 'svc', 'package.json'), 'utf8'),
    );
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.scripts).toBeUndefined();
    const installed = run('npm', ['ls', '--all', '--parseable'], project);
    expect(installed.stdout.trim().split('\n').slice(1)).toEqual([
      join(project, 'node_modules', 'svc'),
    ]);
  });

  test('npx svc serves, with the API reference offline', async () => {
    const version = run('npx', ['--offline', 'svc', '--version'], project);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const ready = join(project, 'ready.json');
    // A new data file is seeded with the demo workspace: faker and zipcodes come with svc.
    const script = `
      const { spawn } = require('node:child_process');
      const fs = require('node:fs');
      const child = spawn('npx', ['--offline', 'svc', 'serve', '--port', '0', '--data', 'data.json', '--ready-file', ${JSON.stringify(ready)}], { stdio: 'ignore' });
      const started = Date.now();
      const wait = setInterval(async () => {
        if (!fs.existsSync(${JSON.stringify(ready)})) { if (Date.now() - started > 30000) { child.kill(); process.exit(3); } return; }
        clearInterval(wait);
        const r = JSON.parse(fs.readFileSync(${JSON.stringify(ready)}, 'utf8'));
        const key = r.workspaces[0].keys.write.key;
        const ping = await fetch(r.base_url + '/ping', { headers: { Authorization: 'Bearer ' + key } });
        const ui = await fetch(r.app_url + '/docs/assets/swagger-ui-bundle.js');
        process.kill(r.pid, 'SIGTERM');
        console.log(JSON.stringify({ ping: ping.status, ui: ui.status }));
      }, 50);
    `;
    const res = run('node', ['-e', script], project, 60_000);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ ping: 200, ui: 200 });
  });

  test('require() and import both give startSvc, in a child process and in this one', async () => {
    const cjs = `
      const { startSvc, SvcError } = require('svc');
      (async () => {
        for (const inProcess of [false, true]) {
          const svc = await startSvc({ inProcess });
          const ping = await fetch(svc.baseUrl + '/ping', { headers: { Authorization: 'Bearer ' + svc.workspace.keys.read } });
          const err = await svc.faults.add({ match: {}, action: {} }).catch((e) => e);
          await svc.stop();
          console.log(ping.status, err instanceof SvcError, err.field);
        }
        process.exit(0); // the in-process server's timers are this process's
      })();
    `;
    await writeFile(join(project, 'check.cjs'), cjs);
    const viaRequire = run('node', ['check.cjs'], project, 60_000);
    expect(viaRequire.code, viaRequire.stderr).toBe(0);
    expect(viaRequire.stdout.trim().split('\n')).toEqual(['200 true action', '200 true action']);
    const esm = `
      import { startSvc } from 'svc';
      const svc = await startSvc({ profile: 'small' });
      const jobs = await (await fetch(svc.baseUrl + '/jobs', { headers: { Authorization: 'Bearer ' + svc.workspace.keys.read } })).json();
      const now = await svc.workspace.clock.advance(3600);
      await svc.stop();
      console.log(jobs.data.length > 0, typeof now);
    `;
    await writeFile(join(project, 'check.mjs'), esm);
    const viaImport = run('node', ['check.mjs'], project, 60_000);
    expect(viaImport.code, viaImport.stderr).toBe(0);
    expect(viaImport.stdout.trim()).toBe('true string');
  });

  test('the types check, for import and for require', async () => {
    const use = (importLine: string) => `${importLine}
      async function main(): Promise<void> {
        const svc: Svc = await startSvc({ profile: 'demo', rateLimit: 'off', allowLocalTargets: true });
        const ws: SvcWorkspace = await svc.newWorkspace({ expiresInSeconds: 60 });
        const fault: Fault = await svc.faults.add({ match: { workspace_id: ws.id }, action: { status: 503, code: 'server_error' } });
        const calls: LoggedRequest[] = await svc.requests({ status: 503 });
        const at: string = await ws.clock.set(new Date());
        const { location } = await svc.oauth.authorize({ client_id: 'c', redirect_uri: 'https://a.example/cb', state: 's', workspace_id: ws.id, decision: 'deny' });
        const err: SvcError | undefined = undefined;
        void [fault.state, calls.length, at, location, err];
        await svc.stop();
      }
      void main;
    `;
    await writeFile(
      join(project, 'use.mts'),
      use(
        "import { startSvc, type Svc, type SvcWorkspace, type Fault, type LoggedRequest, SvcError } from 'svc';",
      ),
    );
    await writeFile(
      join(project, 'use.cts'),
      use(
        "import { startSvc, type Svc, type SvcWorkspace, type Fault, type LoggedRequest, SvcError } from 'svc';",
      ),
    );
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          strict: true,
          noEmit: true,
          types: [],
        },
        files: ['use.mts', 'use.cts'],
      }),
    );
    const tsc = run('node', [join(MODULES, 'typescript', 'bin', 'tsc'), '-p', project], project);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  });

  test('the vitest globalSetup example of docs/guides/testing.md runs against it', async () => {
    const dir = join(project, 'vitest-example');
    await mkdir(dir, { recursive: true });
    await cp(join(ROOT, 'examples', 'vitest'), dir, { recursive: true });
    await symlink(join(MODULES, 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
    const res = run(
      'node',
      [join(MODULES, 'vitest', 'vitest.mjs'), 'run', '--root', dir],
      project,
      120_000,
    );
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toMatch(/1 passed/);
  });
});
