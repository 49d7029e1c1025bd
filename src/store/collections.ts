import type { Rec } from './types';

// Each resource registers its record type by augmenting these interfaces, e.g.
//   declare module '../../store/collections' { interface WorkspaceCollections { users: User } }
// so reads are typed without the store depending on any resource.
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface WorkspaceCollections {}
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface GlobalCollections {}

export type Name<C> = Extract<keyof C, string>;
export type RecordOf<C, K extends keyof C> = C[K] extends Rec ? C[K] : never;
