export type { GlobalCollections, WorkspaceCollections } from './collections';
export { dumpScope } from './dump';
export { storeFiles } from './persistence';
export { ScopedStore } from './scoped';
export { type CommitHook, Store } from './store';
export type { Tx, TxScope } from './tx';
export {
  type Change,
  GLOBAL,
  type Position,
  type Rec,
  type ScanOptions,
  ScopeDropped,
  StoreFileError,
  type Template,
} from './types';

import type { GlobalCollections, WorkspaceCollections } from './collections';
import type { ScopedStore } from './scoped';
export type WorkspaceStore = ScopedStore<WorkspaceCollections>;
export type GlobalStore = ScopedStore<GlobalCollections>;
