import { describe, expect, test } from 'vitest';
import { Clock } from './clock';
import { MinHeap } from './heap';
import { Scheduler } from './scheduler';

describe('MinHeap', () => {
  test('pops in order', () => {
    const heap = new MinHeap<number>((a, b) => a < b);
    for (const n of [5, 1, 9, 3, 3, 7, 0]) {
      heap.push(n);
    }
    const out: number[] = [];
    for (let n = heap.pop(); n !== undefined; n = heap.pop()) {
      out.push(n);
    }
    expect(out).toEqual([0, 1, 3, 3, 5, 7, 9]);
  });
});

describe('Scheduler', () => {
  test('real time fires a due task without moving the clock', async () => {
    let now = 1_000_000;
    const clock = new Clock(0, () => now);
    const scheduler = new Scheduler(clock);
    const ran: number[] = [];
    scheduler.schedule('t', now + 50, () => {
      ran.push(clock.nowMs());
    });
    scheduler.start();
    now += 50;
    const deadline = Date.now() + 2000;
    while (ran.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    scheduler.stop();
    expect(ran).toEqual([1_000_050]);
  });

  test('cancelling a group cancels its tasks alone, a task moved to another group included', async () => {
    const clock = new Clock(0, () => 1000);
    const scheduler = new Scheduler(clock);
    const ran: string[] = [];
    const task = (name: string) => () => {
      ran.push(name);
    };
    scheduler.schedule('a1', 2000, task('a1'), 'ws_a');
    scheduler.schedule('a2', 3000, task('a2'), 'ws_a');
    scheduler.schedule('b1', 2500, task('b1'), 'ws_b');
    scheduler.schedule('moved', 2600, task('moved'), 'ws_a');
    scheduler.schedule('moved', 2600, task('moved'), 'ws_b');
    scheduler.schedule('server', 2700, task('server'));
    scheduler.cancelGroup('ws_a');
    expect(scheduler.size).toBe(3);
    await scheduler.advanceTo(5000);
    expect(ran).toEqual(['b1', 'moved', 'server']);
    scheduler.cancelGroup('ws_b'); // nothing left of it: harmless
    expect(scheduler.size).toBe(0);
  });

  test('the clock never moves backwards', () => {
    const clock = new Clock(0, () => 1000);
    clock.moveTo(5000);
    clock.moveTo(2000);
    expect(clock.nowMs()).toBe(5000);
  });

  test('tasks with one due time run in the order they were scheduled', async () => {
    const clock = new Clock(0, () => 0);
    const scheduler = new Scheduler(clock);
    const ran: string[] = [];
    for (const name of ['x', 'y', 'z']) {
      scheduler.schedule(name, 10, () => {
        ran.push(name);
      });
    }
    await scheduler.advanceTo(10);
    expect(ran).toEqual(['x', 'y', 'z']);
    expect(scheduler.size).toBe(0);
  });

  test("a group's earliest work counts a task running now at the time it fell due, until it ends", async () => {
    const now = 1_000_000;
    const clock = new Clock(0, () => now);
    const scheduler = new Scheduler(clock);
    let finish: () => void = () => {};
    scheduler.schedule(
      'send',
      now - 5,
      () => new Promise<void>((resolve) => (finish = resolve)),
      'ws',
    );
    scheduler.schedule('later', now + 500, () => undefined, 'ws');
    scheduler.runDue();
    await Promise.resolve();
    expect([scheduler.busy('ws'), scheduler.earliest('ws')]).toEqual([true, now - 5]);
    finish();
    await scheduler.idle();
    expect([scheduler.busy('ws'), scheduler.earliest('ws')]).toEqual([false, now + 500]);
  });
});
