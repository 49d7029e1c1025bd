import type pg from 'pg';
import { transaction } from './transaction';
import type { Versions } from './versions';

// The faults injected through the control API where several nodes serve the schema (decisions.md,
// Several nodes): one list for every node, each fault with the state of its draws, so that a
// fault's `times`, its count of firings and its seeded draws are over every node's calls, as on
// one server. Each change raises the list's version, which every node's next check sees.

/** The name the faults' version is followed by (versions.ts). */
export const FAULTS = '~faults';

/** A fault as the table keeps it: the control API's JSON, and the state of its draws. */
export interface SharedFault {
  fault: unknown;
  draw: number;
}

export class SharedFaults {
  readonly #pool: pg.Pool;
  readonly #s: string;
  readonly #versions: Versions;

  constructor(pool: pg.Pool, s: string, versions: Versions) {
    this.#pool = pool;
    this.#s = s;
    this.#versions = versions;
  }

  /** Every fault, oldest first, and the version of the list read. */
  read(): Promise<{ version: number; faults: SharedFault[] }> {
    return transaction(
      this.#pool,
      async (client) => {
        const version = await client.query<{ version: string }>(
          `SELECT version FROM ${this.#s}.shared_versions WHERE name = $1`,
          [FAULTS],
        );
        const { rows } = await client.query<{ fault: unknown; draw: string }>(
          `SELECT fault, draw FROM ${this.#s}.faults ORDER BY ord`,
        );
        return {
          version: Number(version.rows[0]?.version ?? 0),
          faults: rows.map((r) => ({ fault: r.fault, draw: Number(r.draw) })),
        };
      },
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
  }

  /** A fault added, its draws from `draw`. */
  add(id: string, fault: unknown, draw: number): Promise<void> {
    return this.#change(async (client) => {
      await client.query(`INSERT INTO ${this.#s}.faults (id, fault, draw) VALUES ($1, $2, $3)`, [
        id,
        JSON.stringify(fault),
        draw,
      ]);
      return { value: undefined, changed: true };
    });
  }

  /** The faults of `ids` deleted (every fault, without ids): how many there were. */
  remove(ids?: readonly string[]): Promise<number> {
    return this.#change(async (client) => {
      const { rowCount } =
        ids === undefined
          ? await client.query(`DELETE FROM ${this.#s}.faults`)
          : await client.query(`DELETE FROM ${this.#s}.faults WHERE id = ANY($1)`, [ids]);
      return { value: rowCount ?? 0, changed: (rowCount ?? 0) > 0 };
    });
  }

  /**
   * Fault `id` offered a call: `decide`, given the fault and its draws as they stand (none when
   * it is gone), answers the fault and the draws after it (`shown`: the fault itself changed, as
   * the list shows it), or nothing when it is as it was. The row is locked meanwhile, so that
   * every node's calls count one after another. A draw alone raises no version: no node's list
   * shows draws, and a fault of low probability would have every node read the list every call.
   */
  fire<T>(
    id: string,
    decide: (
      now: SharedFault | undefined,
    ) => { after: SharedFault; fired: T; shown: boolean } | undefined,
  ): Promise<T | undefined> {
    return this.#change(async (client) => {
      const { rows } = await client.query<{ fault: unknown; draw: string }>(
        `SELECT fault, draw FROM ${this.#s}.faults WHERE id = $1 FOR UPDATE`,
        [id],
      );
      const row = rows[0];
      const decided = decide(row && { fault: row.fault, draw: Number(row.draw) });
      if (decided === undefined) {
        return { value: undefined, changed: false };
      }
      await client.query(`UPDATE ${this.#s}.faults SET fault = $2, draw = $3 WHERE id = $1`, [
        id,
        JSON.stringify(decided.after.fault),
        decided.after.draw,
      ]);
      return { value: decided.fired, changed: decided.shown };
    });
  }

  /** `change` in one transaction, which raises the list's version where it changed what it shows. */
  async #change<T>(
    change: (client: pg.PoolClient) => Promise<{ value: T; changed: boolean }>,
  ): Promise<T> {
    const { value, version } = await transaction(this.#pool, async (client) => {
      const { value, changed } = await change(client);
      if (!changed) {
        return { value, version: undefined };
      }
      const { rows } = await client.query<{ version: string }>(
        `INSERT INTO ${this.#s}.shared_versions AS v (name, version) VALUES ($1, 1)
         ON CONFLICT (name) DO UPDATE SET version = v.version + 1
         RETURNING version`,
        [FAULTS],
      );
      return { value, version: Number(rows[0]?.version ?? 0) };
    });
    if (version !== undefined) {
      this.#versions.saw(FAULTS, version);
    }
    return value;
  }
}
