// Receiver chaos without the network (issue 19): the seeded draws, --drop in the receiver's
// decision, --duplicate and --reorder in the forwarding queue. The processes are in
// test/cli/webhook-listen-chaos.test.ts.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { describeChaos, seededShare, seededShuffle } from '../../src/clients/listen/chaos';
import { createDedupe } from '../../src/clients/listen/dedupe';
import type { Forward } from '../../src/clients/listen/forwarder';
import { chaosForwarding } from '../../src/clients/listen/forwarding';
import { createReceiver, type Delivery } from '../../src/clients/listen/receiver';
import { createResponder } from '../../src/clients/listen/responder';

afterEach(() => {
  vi.useRealTimers();
});

describe('seeded draws', () => {
  test('the same seed gives the same drops; another seed other ones', () => {
    const take = (seed: number) => {
      const draw = seededShare('drop', seed, 0.5);
      return Array.from({ length: 64 }, () => draw());
    };
    expect(take(7)).toEqual(take(7));
    expect(take(7)).not.toEqual(take(8));
  });

  test('a share of 0 never fires, 1 always, and 0.25 about a quarter of the time', () => {
    const count = (share: number) => {
      const draw = seededShare('duplicate', 1, share);
      return Array.from({ length: 10_000 }, () => draw()).filter(Boolean).length;
    };
    expect(count(0)).toBe(0);
    expect(count(1)).toBe(10_000);
    expect(count(0.25)).toBeGreaterThan(2300);
    expect(count(0.25)).toBeLessThan(2700);
  });

  test('each flag has its own stream: --drop and --duplicate with one seed do not fire together', () => {
    const drop = seededShare('drop', 3, 0.5);
    const duplicate = seededShare('duplicate', 3, 0.5);
    const a = Array.from({ length: 64 }, () => drop());
    const b = Array.from({ length: 64 }, () => duplicate());
    expect(a).not.toEqual(b);
  });

  test('a shuffle is a permutation, repeats for a seed, and never gives back the order given', () => {
    const items = ['a', 'b', 'c', 'd'];
    const first = seededShuffle(5);
    const again = seededShuffle(5);
    for (let i = 0; i < 200; i++) {
      const out = first(items);
      expect(out).toEqual(again(items));
      expect([...out].sort()).toEqual(items);
      expect(out).not.toEqual(items);
    }
    expect(seededShuffle(5)(['x', 'y'])).toEqual(['y', 'x']);
    expect(seededShuffle(5)(['only'])).toEqual(['only']);
  });

  test('the banner names each flag that is on and the seed that repeats the run', () => {
    expect(describeChaos({ drop: 0, duplicate: 0, reorder: 0, seed: 1 })).toBeUndefined();
    expect(describeChaos({ drop: 0.1, duplicate: 0.5, reorder: 3, seed: 42 })).toBe(
      'drop 0.1 (no answer: the connection is closed, svc retries), duplicate 0.5 of forwards, reorder forwards by 3; seed 42 (--seed 42 repeats it)',
    );
  });
});

describe('--drop in the receiver', () => {
  const SECRET = 'whsec_chaos_unit';
  const NOW_MS = 1_800_000_000_000;
  const delivery = (eventId: string, secret = SECRET): Delivery => {
    const raw = Buffer.from(
      JSON.stringify({ id: 'r1', event_type: 'job.created', event_id: eventId }),
    );
    const t = NOW_MS / 1000;
    const v1 = createHmac('sha256', secret).update(`${t}.${raw.toString()}`).digest('hex');
    return {
      raw,
      headers: { 'x-service-signature': `t=${t},v1=${v1}`, 'x-service-delivery': eventId },
    };
  };
  const receiver = (drops: boolean[], statuses = [200]) =>
    createReceiver({
      verify: true,
      secrets: [SECRET],
      toleranceSeconds: 300,
      responder: createResponder(statuses),
      dedupe: createDedupe(),
      drop: () => drops.shift() ?? false,
    });

  test('a dropped delivery has no status, is not forwarded, and leaves the --respond sequence alone', () => {
    const receive = receiver([true, false], [500, 200]);
    const dropped = receive(delivery('e1'), NOW_MS);
    expect(dropped).toMatchObject({ verdict: 'ok', status: null, fresh: false });
    expect(receive(delivery('e2'), NOW_MS)).toMatchObject({ status: 500, fresh: true });
  });

  test('a dropped delivery is not remembered as acknowledged: its retry is fresh, not a duplicate', () => {
    const receive = receiver([true, false]);
    receive(delivery('e1'), NOW_MS);
    expect(receive(delivery('e1'), NOW_MS)).toMatchObject({
      verdict: 'ok',
      status: 200,
      fresh: true,
    });
  });

  test('a dropped delivery is still checked: a bad signature keeps its verdict and diagnosis', () => {
    const receive = receiver([true]);
    expect(receive(delivery('e1', 'whsec_other'), NOW_MS)).toMatchObject({
      verdict: 'bad-signature',
      status: null,
      diagnosis: { kind: 'another-secret' },
    });
  });

  test('a dropped repeat of an acknowledged event stays a duplicate, unanswered', () => {
    const receive = receiver([false, true]);
    receive(delivery('e1'), NOW_MS);
    expect(receive(delivery('e1'), NOW_MS)).toMatchObject({ verdict: 'duplicate', status: null });
  });
});

describe('--duplicate and --reorder in the forwarding queue', () => {
  const made = (n: number): Delivery => ({ headers: {}, raw: Buffer.from(`d${n}`) });
  function setup(opts: { duplicate: boolean; reorder: number; idleMs?: number }) {
    const sent: string[] = [];
    const lines: string[] = [];
    const forward: Forward = async (d) => {
      sent.push(d.raw.toString());
    };
    const forwarding = chaosForwarding({
      forward,
      duplicate: () => opts.duplicate,
      reorder: opts.reorder,
      shuffle: seededShuffle(11),
      idleMs: opts.idleMs ?? 1000,
      out: (l) => lines.push(l),
    });
    const deliver = (n: number) => {
      const taken = forwarding.take(made(n), `d${n}`);
      taken.start();
      return taken.marker;
    };
    return { sent, lines, forwarding, deliver };
  }

  test('--duplicate forwards the delivery twice in a row, and its line says so', async () => {
    const { sent, forwarding, deliver } = setup({ duplicate: true, reorder: 0 });
    expect(deliver(1)).toBe('dup: forwarded twice');
    deliver(2);
    await forwarding.drain();
    expect(sent).toEqual(['d1', 'd1', 'd2', 'd2']);
  });

  test('--reorder 3 holds three, then forwards them in another order, printed by hold number', async () => {
    const { sent, lines, forwarding, deliver } = setup({ duplicate: false, reorder: 3 });
    expect([deliver(1), deliver(2)]).toEqual(['held #1', 'held #2']);
    await Promise.resolve();
    expect(sent).toEqual([]);
    expect(deliver(3)).toBe('held #3');
    await forwarding.drain();
    expect([...sent].sort()).toEqual(['d1', 'd2', 'd3']);
    expect(sent).not.toEqual(['d1', 'd2', 'd3']);
    const order = sent.map((s) => `#${s.slice(1)}`).join(', ');
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(`^\\d\\d:\\d\\d:\\d\\d forwarding held ${order} \\(--reorder 3: shuffled\\)$`),
      ),
    ]);
  });

  test('a batch smaller than N goes after the idle time, so nothing is held for ever', async () => {
    vi.useFakeTimers();
    const { sent, deliver } = setup({ duplicate: false, reorder: 5, idleMs: 1000 });
    deliver(1);
    deliver(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(['d2', 'd1']);
  });

  test('each new hold restarts the idle time', async () => {
    vi.useFakeTimers();
    const { sent, deliver } = setup({ duplicate: false, reorder: 5, idleMs: 1000 });
    deliver(1);
    await vi.advanceTimersByTimeAsync(800);
    deliver(2);
    await vi.advanceTimersByTimeAsync(800);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(sent).toHaveLength(2);
  });

  test('stopping forwards whatever is held', async () => {
    const { sent, forwarding, deliver } = setup({ duplicate: false, reorder: 10 });
    deliver(1);
    deliver(2);
    await forwarding.drain();
    expect([...sent].sort()).toEqual(['d1', 'd2']);
  });

  test('with both, the two copies are held apart, each with its number', async () => {
    const { sent, forwarding, deliver } = setup({ duplicate: true, reorder: 4 });
    expect(deliver(1)).toBe('dup: held #1 and #2');
    expect(deliver(2)).toBe('dup: held #3 and #4');
    await forwarding.drain();
    expect([...sent].sort()).toEqual(['d1', 'd1', 'd2', 'd2']);
    expect(sent).not.toEqual(['d1', 'd1', 'd2', 'd2']);
  });
});
