import { describe, expect, test } from 'vitest';
import { Pool } from './pool';

// decisions.md, Concurrency: at most `total` sends at once, at most `perKey` per subscription,
// free slots handed round-robin across subscriptions.

interface Job {
  key: string;
  name: string;
  started: boolean;
  finished: boolean;
  finish: () => void;
  done: Promise<unknown>;
}

/** Runs work on a pool whose pieces finish only when told, recording what ran and how much. */
function rig(total: number, perKey: number) {
  const pool = new Pool(total, perKey);
  const order: string[] = [];
  const active = new Map<string, number>();
  let running = 0;
  let maxRunning = 0;
  const maxPerKey = new Map<string, number>();
  const jobs: Job[] = [];

  const submit = (key: string, name = `${key}${jobs.filter((j) => j.key === key).length}`) => {
    let finish = () => {};
    const job: Job = {
      key,
      name,
      started: false,
      finished: false,
      finish: () => finish(),
      done: Promise.resolve(),
    };
    job.done = pool.run(key, async () => {
      job.started = true;
      order.push(name);
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      const now = (active.get(key) ?? 0) + 1;
      active.set(key, now);
      maxPerKey.set(key, Math.max(maxPerKey.get(key) ?? 0, now));
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      running -= 1;
      active.set(key, (active.get(key) ?? 1) - 1);
      return name;
    });
    jobs.push(job);
    return job;
  };

  /** Lets queued microtasks (wake-ups) run. */
  const settle = async () => {
    for (let i = 0; i < 10; i++) {
      await Promise.resolve();
    }
  };

  return {
    pool,
    order,
    jobs,
    submit,
    settle,
    running: () => running,
    maxRunning: () => maxRunning,
    maxPerKey: (key: string) => maxPerKey.get(key) ?? 0,
    /** Finishes the running jobs one by one, oldest first, until all are done. */
    async drain() {
      for (;;) {
        await settle();
        // the one that started first among those still running
        const next = order
          .map((name) => jobs.find((j) => j.name === name))
          .find((j) => j !== undefined && !j.finished);
        if (!next) {
          return;
        }
        next.finished = true;
        next.finish();
        await next.done;
      }
    },
  };
}

describe('Pool', () => {
  test('runs no more than perKey at once for one key', async () => {
    const r = rig(10, 3);
    for (let i = 0; i < 8; i++) {
      r.submit('a');
    }
    await r.settle();
    expect(r.running()).toBe(3);
    expect(r.pool.running).toBe(3);
    await r.drain();
    expect(r.order).toHaveLength(8);
    expect(r.maxPerKey('a')).toBe(3);
    expect(r.pool.running).toBe(0);
  });

  test('runs no more than total at once across keys', async () => {
    const r = rig(4, 2);
    for (const key of ['a', 'b', 'c', 'd']) {
      for (let i = 0; i < 3; i++) {
        r.submit(key);
      }
    }
    await r.settle();
    expect(r.running()).toBe(4);
    await r.drain();
    expect(r.order).toHaveLength(12);
    expect(r.maxRunning()).toBe(4);
    for (const key of ['a', 'b', 'c', 'd']) {
      expect(r.maxPerKey(key)).toBeLessThanOrEqual(2);
    }
  });

  test('a key at its limit does not hold up another key while slots are free', async () => {
    const r = rig(8, 1);
    const a0 = r.submit('a');
    const a1 = r.submit('a');
    const b0 = r.submit('b');
    await r.settle();
    expect(a0.started).toBe(true);
    expect(a1.started).toBe(false);
    expect(b0.started).toBe(true);
    await r.drain();
    expect(a1.started).toBe(true);
  });

  test('waiting work is served round-robin across keys', async () => {
    const r = rig(1, 1);
    r.submit('a', 'a0');
    for (const name of ['a1', 'a2', 'a3']) {
      r.submit('a', name);
    }
    r.submit('b', 'b1');
    r.submit('b', 'b2');
    r.submit('c', 'c1');
    await r.drain();
    expect(r.order).toEqual(['a0', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  test('a long backlog on one key does not starve a key with one waiting piece', async () => {
    const r = rig(2, 2);
    r.submit('a', 'a0');
    r.submit('a', 'a1');
    for (let i = 2; i < 20; i++) {
      r.submit('a', `a${i}`);
    }
    r.submit('b', 'b0');
    await r.drain();
    // b waits for one slot only: it goes within the next two starts, not after the backlog
    expect(r.order.indexOf('b0')).toBeLessThanOrEqual(3);
  });

  test('returns what the work returns, and a failing piece frees its slot', async () => {
    const pool = new Pool(1, 1);
    await expect(pool.run('a', async () => 42)).resolves.toBe(42);
    await expect(
      pool.run('a', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(pool.running).toBe(0);
    await expect(pool.run('a', async () => 'again')).resolves.toBe('again');
  });
});
