import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openRecorder } from '../../src/clients/listen/recorder';
import { cleanup, tempDir } from '../support/spawn';

afterEach(cleanup);

const entry = (n: number) => ({
  received_at: new Date(n).toISOString(),
  verdict: 'ok' as const,
  status: 200,
  headers: { 'x-service-delivery': `e${n}`, 'content-type': 'application/json' },
  body: `{"id":"r${n}"}`,
});

describe('openRecorder', () => {
  test('appends one JSON line per entry, in order, after what the file held', async () => {
    const file = join(await tempDir(), 'deliveries.jsonl');
    const first = await openRecorder(file);
    await first.append(entry(1));
    await first.close();
    const second = await openRecorder(file);
    await Promise.all([2, 3, 4].map((n) => second.append(entry(n))));
    await second.close();
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([1, 2, 3, 4].map(entry));
  });

  test('a path that cannot be opened fails at open, not at the first delivery', async () => {
    const dir = await tempDir();
    await expect(openRecorder(join(dir, 'missing', 'deliveries.jsonl'))).rejects.toThrow(/ENOENT/);
  });

  test('an append after close is dropped, not an error', async () => {
    const file = join(await tempDir(), 'deliveries.jsonl');
    const recorder = await openRecorder(file);
    await recorder.close();
    await expect(recorder.append(entry(1))).resolves.toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('');
  });
});
