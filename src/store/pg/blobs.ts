import type pg from 'pg';

// Uploaded files' bytes where several nodes serve the schema (architecture.md, Several nodes): a
// node keeps them beside its --data as one node does, and puts them here too before the file's
// record commits, so a file uploaded through one node downloads through any other, which keeps a
// copy of its own the first time.

export class SharedBlobs {
  readonly #pool: pg.Pool;
  readonly #s: string;

  constructor(pool: pg.Pool, s: string) {
    this.#pool = pool;
    this.#s = s;
  }

  async put(wsId: string, id: string, bytes: Uint8Array): Promise<void> {
    await this.#pool.query(
      `INSERT INTO ${this.#s}.blobs (scope, id, bytes) VALUES ($1, $2, $3)
       ON CONFLICT (scope, id) DO UPDATE SET bytes = excluded.bytes`,
      [wsId, id, Buffer.from(bytes)],
    );
  }

  async get(wsId: string, id: string): Promise<Buffer | undefined> {
    const { rows } = await this.#pool.query<{ bytes: Buffer }>(
      `SELECT bytes FROM ${this.#s}.blobs WHERE scope = $1 AND id = $2`,
      [wsId, id],
    );
    return rows[0]?.bytes;
  }

  async remove(wsId: string, id: string): Promise<void> {
    await this.#pool.query(`DELETE FROM ${this.#s}.blobs WHERE scope = $1 AND id = $2`, [wsId, id]);
  }

  async removeWorkspace(wsId: string): Promise<void> {
    await this.#pool.query(`DELETE FROM ${this.#s}.blobs WHERE scope = $1`, [wsId]);
  }
}
