import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Store, StoreFileError } from '../../src/store';
import { cleanup, spawnNode, tempDir } from '../support/spawn';

// A stand-in for another svc: takes `<data>.lock` with its own pid, says so, and waits.
const HOLDER = `
const fs = require('node:fs');
fs.writeFileSync(process.argv[1] + '.lock', String(process.pid), { flag: 'wx' });
process.stdout.write('locked\\n');
setInterval(() => {}, 60000);
`;

function holdLock(path: string): Promise<ChildProcess> {
  const child = spawnNode(['-e', HOLDER, path]);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('lock holder did not start')), 10_000);
    child.stdout?.once('data', () => {
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`lock holder exited with ${code}`));
    });
  });
}

afterEach(cleanup);

describe('one process per data file', () => {
  test('a second open of a data file held by a live process fails with StoreFileError', async () => {
    const path = join(await tempDir(), 'data.json');
    await writeFile(path, '{"format":"svc-data","version":1,"seq":0,"global":{},"workspaces":{}}');
    const holder = await holdLock(path);

    const failure = await Store.open(path).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(StoreFileError);
    expect((failure as Error).message).toContain(path);
    expect((failure as Error).message).toContain(`pid ${holder.pid}`);
    // the holder's lock is left alone, and no journal was opened beside its file
    expect(await readFile(`${path}.lock`, 'utf8')).toBe(String(holder.pid));
    expect(existsSync(`${path}.journal`)).toBe(false);

    // once the holder is gone its stale lock is taken over
    const gone = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await gone;
    const { store } = await Store.open(path);
    expect(await readFile(`${path}.lock`, 'utf8')).toBe(String(process.pid));
    await store.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
