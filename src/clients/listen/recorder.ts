import { type FileHandle, open } from 'node:fs/promises';
import type { Outcome } from './receiver';

// --record FILE: one JSON line a delivery, appended, for `svc replay` and for people. The body is
// kept as the text received, not re-serialised, so a replay sends the bytes that were signed. The
// file is opened once at start, so a path svc cannot write stops it before it subscribes.

export interface RecordEntry {
  received_at: string;
  verdict: Outcome['verdict'];
  /** null: dropped by --drop, no answer given. */
  status: number | null;
  /** The X-Service-* headers, Content-Type and User-Agent, names lower-cased. */
  headers: Record<string, string>;
  /** The raw body, decoded as UTF-8 (svc sends JSON, which is UTF-8). */
  body: string;
  /** The signature doctor's finding, when it has one. */
  diagnosis?: Outcome['diagnosis'];
  /** What --drop, --duplicate or --reorder did to it: `dropped`, `dup: forwarded twice`, `held #3`. */
  chaos?: string;
}

export interface Recorder {
  append(entry: RecordEntry): Promise<void>;
  close(): Promise<void>;
}

export async function openRecorder(file: string): Promise<Recorder> {
  const handle: FileHandle = await open(file, 'a');
  // Appends are chained so lines land whole and in the order deliveries were decided.
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  return {
    append(entry) {
      if (closed) {
        return Promise.resolve();
      }
      const line = `${JSON.stringify(entry)}\n`;
      const write = queue.then(() => handle.appendFile(line, 'utf8'));
      queue = write.catch(() => undefined);
      return write;
    },
    async close() {
      if (closed) {
        return;
      }
      closed = true;
      await queue;
      await handle.close();
    },
  };
}
