import { crc32 } from 'node:zlib';

const CHUNK_BYTES = 4 << 20;

/**
 * Gathers what a fold writes into ~4 MB chunks before handing each to `write` as the parts it
 * was given (a gathering write, never a copy into one buffer): a system call per record would cost
 * more than the record. One chunk is written while the next is gathered. Keeps the running CRC-32
 * and the offset of the next byte, which the layout line records.
 */
export class ChunkWriter {
  readonly #write: (parts: Uint8Array[]) => Promise<void>;
  readonly #rest: () => Promise<void>;
  #parts: Uint8Array[] = [];
  #pending = 0;
  #written = 0;
  #crc = 0;
  /** The chunk being written; its failure is met by the next flush or the end. */
  #writing: Promise<void> = Promise.resolve();

  /**
   * `write` gets every part of a chunk at once and may keep them: none is reused. `rest` is
   * awaited before each chunk is handed over: the gathering, not only the writing, waits on it.
   */
  constructor(
    write: (parts: Uint8Array[]) => Promise<void>,
    rest: () => Promise<void> = async () => {},
  ) {
    this.#write = write;
    this.#rest = rest;
  }

  /** The offset the next byte will have. */
  get at(): number {
    return this.#written + this.#pending;
  }

  /** Adds a part without waiting: true once a chunk's worth is gathered (call `flush`). */
  push(part: Uint8Array | string): boolean {
    const bytes = typeof part === 'string' ? Buffer.from(part) : part;
    this.#parts.push(bytes);
    this.#pending += bytes.length;
    return this.#pending >= CHUNK_BYTES;
  }

  text(part: string): Promise<void> {
    return this.bytes(Buffer.from(part));
  }

  async bytes(part: Uint8Array): Promise<void> {
    if (this.push(part)) {
      await this.flush();
    }
  }

  /**
   * Writes what is gathered, then the tail made from the checksum of everything before it, which
   * the checksum does not cover; answers the bytes written in all.
   */
  async end(tail: (crc: number) => string): Promise<number> {
    await this.flush();
    await this.#writing;
    const bytes = Buffer.from(tail(this.#crc));
    await this.#write([bytes]);
    return this.#written + bytes.length;
  }

  /** Hands what is gathered to `write` once the chunk before it is written. */
  async flush(): Promise<void> {
    if (this.#parts.length === 0) {
      return;
    }
    const parts = this.#parts;
    this.#parts = [];
    for (const part of parts) {
      this.#crc = crc32(part, this.#crc);
    }
    this.#written += this.#pending;
    this.#pending = 0;
    await this.#rest();
    await this.#writing;
    this.#writing = this.#write(parts);
    this.#writing.catch(() => {}); // met by the next flush or the end
  }

  /** Waits for the chunk being written, failed or not: before the file is closed. */
  async settled(): Promise<void> {
    await this.#writing.catch(() => {});
  }
}
