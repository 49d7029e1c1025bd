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
});
