import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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

  test('a lock left by a process that exited but is not reaped yet (a zombie) is taken over', async () => {
    const path = join(await tempDir(), 'data.json');
    await writeFile(path, '{"format":"svc-data","version":1,"seq":0,"global":{},"workspaces":{}}');
    // The shell starts a child, then becomes a sleep that never reaps it: the child, once it
    // exits, stays a zombie (state Z) under a live parent, still answering kill(pid, 0).
    const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const pid = await new Promise<number>((resolve) =>
        parent.stdout.once('data', (d: Buffer) => resolve(Number.parseInt(String(d), 10))),
      );
      const state = () => {
        const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
        return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      };
      for (let waited = 0; state() !== 'Z' && waited < 5000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(state()).toBe('Z');
      expect(() => process.kill(pid, 0)).not.toThrow();
      await writeFile(`${path}.lock`, String(pid));

      const { store } = await Store.open(path);
      expect(await readFile(`${path}.lock`, 'utf8')).toBe(String(process.pid));
      await store.close();
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
