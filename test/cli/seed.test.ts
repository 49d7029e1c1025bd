import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup, runSvc, tempDir } from '../support/spawn';

afterEach(cleanup);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function seed(data: string, seedValue: number, profile = 'small') {
  const run = await runSvc([
    'seed',
    '--data',
    data,
    '--seed',
    String(seedValue),
    '--profile',
    profile,
    '--json',
  ]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return { json: JSON.parse(run.stdout), bytes: await readFile(data) };
}

describe('svc seed', () => {
  test('svc seed --json prints the data file and each workspace with its write and read keys', async () => {
    const dir = await tempDir();
    const data = join(dir, 'seeded.json');
    const { json, bytes } = await seed(data, 7);

    expect(Object.keys(json).sort()).toEqual(['data', 'workspaces']);
    expect(json.data).toBe(data);
    expect(json.workspaces).toHaveLength(1);
    const [ws] = json.workspaces;
    expect(Object.keys(ws).sort()).toEqual(['id', 'keys', 'name']);
    expect(ws.id).toMatch(UUID);
    expect(typeof ws.name).toBe('string');
    expect(ws.name.length).toBeGreaterThan(0);
    for (const access of ['write', 'read']) {
      expect(Object.keys(ws.keys[access]).sort()).toEqual(['id', 'key']);
      expect(ws.keys[access].id).toMatch(UUID);
      expect(ws.keys[access].key).toMatch(/^svc_live_\S+$/);
    }
    expect(ws.keys.write.key).not.toBe(ws.keys.read.key);

    // and the file it names holds that workspace
    const file = JSON.parse(bytes.toString('utf8'));
    expect(file).toMatchObject({ format: 'svc-data', version: 1 });
    expect(Object.keys(file.workspaces)).toEqual([ws.id]);
  });

  test('the same --seed gives byte-identical data files and another seed different bytes', async () => {
    const dir = await tempDir();
    const [a, b, c] = await Promise.all([
      seed(join(dir, 'a.json'), 7),
      seed(join(dir, 'b.json'), 7),
      seed(join(dir, 'c.json'), 8),
    ]);
    expect(a.bytes.equals(b.bytes)).toBe(true);
    expect(a.json.workspaces).toEqual(b.json.workspaces);
    expect(a.bytes.equals(c.bytes)).toBe(false);
    expect(c.json.workspaces[0].keys.write.key).not.toBe(a.json.workspaces[0].keys.write.key);

    // seeding an existing file replaces it: seed 7 over seed 8 gives seed 7's bytes
    const again = await seed(join(dir, 'c.json'), 7);
    expect(again.bytes.equals(a.bytes)).toBe(true);
  });

  test.each(['empty', 'demo'])(
    '--profile %s: the same --seed gives byte-identical files too',
    async (profile) => {
      const dir = await tempDir();
      const [a, b] = await Promise.all([
        seed(join(dir, 'a.json'), 3, profile),
        seed(join(dir, 'b.json'), 3, profile),
      ]);
      expect(a.bytes.equals(b.bytes)).toBe(true);
      expect(a.json.workspaces).toEqual(b.json.workspaces);
    },
  );
});
