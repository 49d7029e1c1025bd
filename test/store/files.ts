import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { type Rec, ScopedStore, Store } from '../../src/store';
import { tempDir } from '../support/spawn';

export type Thing = Rec & { created_at: string; n: number; pad?: string };
export interface Things {
  things: Thing;
}

export const WS = 'ws_durable';
export const thing = (id: string, n = 1, pad?: string): Thing => ({
  id,
  created_at: '2026-01-01T00:00:00.000Z',
  n,
  ...(pad === undefined ? {} : { pad }),
});
export const put = (store: Store, ...recs: Thing[]) =>
  store.transaction((tx) => {
    for (const rec of recs) {
      tx.scope<Things>(WS).put('things', rec);
    }
  });
export const ids = (store: Store) =>
  [...new ScopedStore<Things>(store, WS).values('things')].map((r) => r.id).sort();

/** The files as a crash would leave them: copied while the store is still open. */
export async function crashCopy(path: string): Promise<string> {
  const copy = join(await tempDir(), 'data.json');
  for (const suffix of ['', '.journal', '.journal.prev']) {
    if (existsSync(`${path}${suffix}`)) {
      await copyFile(`${path}${suffix}`, `${copy}${suffix}`);
    }
  }
  return copy;
}

export async function openPath(): Promise<{ path: string; store: Store }> {
  const path = join(await tempDir(), 'data.json');
  const { store } = await Store.open(path);
  return { path, store };
}

/** The file's text with its layout changed and its checksum made right again. */
export function withLayout(
  text: string,
  change: (layout: Record<string, unknown>) => void,
): string {
  const crcAt = text.lastIndexOf('\n,"crc32":');
  const layoutAt = text.lastIndexOf('\n,"layout":', crcAt);
  const layout = JSON.parse(text.slice(layoutAt + '\n,"layout":'.length, crcAt));
  change(layout);
  const body = `${text.slice(0, layoutAt)}\n,"layout":${JSON.stringify(layout)}`;
  return `${body}\n,"crc32":${crc32(body)}}\n`;
}
