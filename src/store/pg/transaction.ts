import type pg from 'pg';

/**
 * `work` in one transaction on a connection of `pool`'s, begun by `begin`: committed when it
 * resolves, rolled back when it throws; the connection goes back to the pool either way.
 */
export async function transaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
