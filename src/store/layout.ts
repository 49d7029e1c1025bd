// The data file ends in two lines of its own (decisions.md, Store): `,"layout":{...}`, where each
// scope's and each collection's bytes lie, and `,"crc32":N}`, a checksum of every byte before it.

/** Byte offsets [start, end) of a JSON value in the data file. */
export type Span = [number, number];

export interface Layout {
  /** Where the value of "workspaces" begins. */
  workspaces_at: number;
  workspaces: Record<string, Span>;
  /** Where the value of "global" lies (files svc wrote before issue 21 lack it). */
  global?: Span;
  /** Scope ("g" for the global one) -> collection -> where its value lies (ditto). */
  collections?: Record<string, Record<string, Span>>;
}

/** A layout a compaction can copy from span by span. */
export type FullLayout = Required<Layout>;

export const LAYOUT_LINE = '\n,"layout":';
export const CRC_LINE = '\n,"crc32":';
