import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { mintApiKey } from '../platform/auth';
import type { Profile } from '../platform/family';
import { filesDirOf } from '../platform/files/storage';
import { requestLogFiles } from '../platform/request-log';
import type { StoreMeta } from '../platform/store-meta';
import { Store, storeFiles, type Tx, type WorkspaceCollections } from '../store';
import type { Name } from '../store/collections';
import { acquireLock } from '../store/lock';
import type { Generated, GenerateOptions } from './generate';

export type { Generated, GenerateOptions } from './generate';

import { seededKey, seededSecret, seededUuid } from './keys';

export { PROFILES, type Profile } from '../platform/family';

/**
 * decisions.md: `svc seed` dates its records before this fixed instant, not before "now", so
 * the same --seed gives byte-identical files on any day. Workspaces made through /__admin date
 * theirs before the clock's now.
 */
export const SEED_ANCHOR_MS = Date.parse('2026-11-01T15:00:00.000Z');

export interface KeyPair {
  write: { id: string; key: string };
  read: { id: string; key: string };
}

export interface SeededWorkspace {
  id: string;
  name: string;
  keys: KeyPair;
}

export async function generate(opts: GenerateOptions): Promise<Generated> {
  const { generateWorkspace } = await import('./generate');
  return generateWorkspace(opts);
}

/** Writes a generated workspace and its two keys in the caller's transaction. */
export function insertWorkspace(
  tx: Tx,
  gen: Generated,
  now: string,
  keys?: { write: { id: string; key: string }; read: { id: string; key: string } },
): KeyPair {
  tx.global.put('workspaces', gen.workspace);
  const ws = tx.workspace(gen.workspace.id);
  for (const [coll, records] of Object.entries(gen.collections)) {
    for (const rec of records) {
      ws.put(coll as Name<WorkspaceCollections>, rec);
    }
  }
  const mint = (access: 'write' | 'read', given?: { id: string; key: string }) => {
    const minted = mintApiKey(tx.global, {
      workspaceId: gen.workspace.id,
      name: access === 'write' ? 'Default key' : 'Read-only key',
      access,
      now,
      ...(given ? { key: given.key, id: given.id } : {}),
    });
    return { id: minted.record.id, key: minted.key };
  };
  return { write: mint('write', keys?.write), read: mint('read', keys?.read) };
}

/** The keys `svc seed` gives workspace `index` of a file seeded with `seed` and `profile`. */
export function seededKeys(seed: number, profile: string, index: number): KeyPair {
  const pair = (access: 'write' | 'read') => ({
    id: seededUuid(`key:${seed}:${profile}:${index}:${access}`),
    key: seededKey(seed, profile, index, access),
  });
  return { write: pair('write'), read: pair('read') };
}

/** (Re)generates a data file holding one workspace of `profile`; same seed, same bytes. */
export async function seedDataFile(
  path: string,
  opts: { seed: number; profile: Profile },
): Promise<SeededWorkspace[]> {
  await mkdir(dirname(path), { recursive: true });
  acquireLock(path).release(); // refuses while a server holds the file
  for (const file of [...storeFiles(path), ...requestLogFiles(path)]) {
    await rm(file, { force: true });
  }
  // The uploads of the workspaces the file held go with them.
  await rm(filesDirOf(path), { recursive: true, force: true });
  const { store } = await Store.open(path);
  try {
    return await seedInto(store, opts);
  } finally {
    await store.close();
  }
}

/**
 * (Re)generates the PostgreSQL store at `url`, schema `schema`, as `seedDataFile` does a data
 * file: what the schema held is replaced by one workspace of `profile`; refused while a svc serves
 * that schema.
 */
export async function seedPostgres(
  url: string,
  schema: string,
  opts: { seed: number; profile: Profile },
): Promise<SeededWorkspace[]> {
  const { emptySchema } = await import('../store/pg/schema');
  await emptySchema(url, schema);
  const store = await Store.openPostgres(url, schema);
  try {
    return await seedInto(store, opts);
  } finally {
    await store.close();
  }
}

/**
 * Writes one workspace of `profile` into an empty store (a new data file's, or an empty
 * PostgreSQL schema's) with the store's meta; same seed, same records and keys.
 */
export async function seedInto(
  store: Store,
  opts: { seed: number; profile: Profile },
): Promise<SeededWorkspace[]> {
  const gen = await generate({ ...opts, anchorMs: SEED_ANCHOR_MS });
  const now = new Date(SEED_ANCHOR_MS).toISOString();
  const keys = store.transaction((tx) => {
    const meta: StoreMeta = {
      id: 'store',
      secret: seededSecret(opts.seed),
      clock_offset_ms: 0,
      seeded: { seed: opts.seed, profile: opts.profile },
    };
    tx.global.put('meta', meta);
    return insertWorkspace(tx, gen, now, seededKeys(opts.seed, opts.profile, 0));
  });
  await store.sync();
  return [{ id: gen.workspace.id, name: gen.workspace.name, keys }];
}
