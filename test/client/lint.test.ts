// The served documents pass redocly's recommended rules with no error, as an integrator's CI
// would lint them (`redocly lint`): a typeless nullable, an operation without security or an
// unresolved reference is an error there before it is a wrong type in a generated client.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { harness } from '../support/harness';
import { cleanup, tempDir } from '../support/spawn';

afterEach(cleanup);

const require = createRequire(import.meta.url);

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

test.each(['/v1', '/__admin'])('redocly lint of %s/openapi.json finds no error', async (base) => {
  const doc = await (await harness().app.request(`${base}/openapi.json`)).text();
  const file = join(await tempDir(), 'openapi.json');
  writeFileSync(file, doc);
  const run = spawnSync(
    process.execPath,
    [require.resolve('@redocly/cli/bin/cli.js'), 'lint', file, '--format=json'],
    { encoding: 'utf8', timeout: 60_000 },
  );
  const report = JSON.parse(run.stdout) as { problems: Problem[] };
  const errors = report.problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
  expect(errors).toEqual([]);
});
