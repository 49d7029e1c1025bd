import { crc32 } from 'node:zlib';

const CHUNK_BYTES = 1 << 20;

/**
 * Gathers what a snapshot writes into ~1 MB chunks before handing each to `write`: a system call
 * per record would cost more than the record. Keeps the running CRC-32 and the offset of the next
 * byte, which the layout line records.
 */
export class ChunkWriter {
  readonly #write: (chunk: Uint8Array) => Promise<void>;
  #parts: Uint8Array[] = [];
  #pending = 0;
  #written = 0;
  #crc = 0;

  constructor(write: (chunk: Uint8Array) => Promise<void>) {
    this.#write = write;
  }

  /** The offset the next byte will have. */
  get at(): number {
    return this.#written + this.#pending;
  }

  text(part: string): Promise<void> {
    return this.bytes(Buffer.from(part));
  }

  async bytes(part: Uint8Array): Promise<void> {
    this.#parts.push(part);
    this.#pending += part.length;
    if (this.#pending >= CHUNK_BYTES) {
      await this.flush();
    }
  }

  /**
   * Writes what is gathered, then the tail made from the checksum of everything before it, which
   * the checksum does not cover; answers the bytes written in all.
   */
  async end(tail: (crc: number) => string): Promise<number> {
    await this.flush();
    const bytes = Buffer.from(tail(this.#crc));
    await this.#write(bytes);
    return this.#written + bytes.length;
  }

  async flush(): Promise<void> {
    if (this.#parts.length === 0) {
      return;
    }
    const chunk =
      this.#parts.length === 1 ? (this.#parts[0] as Uint8Array) : Buffer.concat(this.#parts);
    this.#parts = [];
    this.#pending = 0;
    this.#crc = crc32(chunk, this.#crc);
    this.#written += chunk.length;
    await this.#write(chunk);
  }
}
