export type { GlobalCollections, WorkspaceCollections } from './collections';
export type { Position } from './order';
export { storeFiles } from './persistence';
export { ScopedStore } from './scoped';
export { type CommitHook, type ScanOptions, Store } from './store';
export type { Tx, TxScope } from './tx';
export { type Change, GLOBAL, type Rec, StoreFileError } from './types';

import type { GlobalCollections, WorkspaceCollections } from './collections';
import type { ScopedStore } from './scoped';
export type WorkspaceStore = ScopedStore<WorkspaceCollections>;
export type GlobalStore = ScopedStore<GlobalCollections>;
