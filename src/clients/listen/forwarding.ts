import type { Shuffle } from './chaos';
import type { Forward } from './forwarder';
import type { Delivery } from './receiver';

// How accepted deliveries reach --forward-to: at once, each on its own; or, with --duplicate or
// --reorder, through one queue, so the app gets them in exactly the order the listener prints.

export interface Taken {
  /** What the delivery's line says about its forward (`dup: forwarded twice`, `held #3`). */
  marker: string | undefined;
  /** Called once the delivery is answered: the forward never delays svc's answer. */
  start(): void;
}

export interface Forwarding {
  take(delivery: Delivery, label: string): Taken;
  /** Forwards whatever is held, then waits for every forward to end. */
  drain(): Promise<void>;
}

export function plainForwarding(forward: Forward): Forwarding {
  const inFlight = new Set<Promise<void>>();
  return {
    take: (delivery, label) => ({
      marker: undefined,
      start() {
        const done = forward(delivery, label).finally(() => inFlight.delete(done));
        inFlight.add(done);
      },
    }),
    drain: async () => {
      await Promise.all(inFlight);
    },
  };
}

export interface ChaosForwardingOptions {
  forward: Forward;
  /** --duplicate's draw: true sends this delivery twice. */
  duplicate: () => boolean;
  /** --reorder N; 0 forwards in order of arrival. */
  reorder: number;
  shuffle: Shuffle;
  /** A batch smaller than N goes after this long without a new delivery, so none waits forever. */
  idleMs: number;
  out: (line: string) => void;
}

interface Held {
  n: number;
  delivery: Delivery;
  label: string;
}

export function chaosForwarding(options: ChaosForwardingOptions): Forwarding {
  let queue: Promise<void> = Promise.resolve();
  const send = (items: readonly Omit<Held, 'n'>[]) => {
    queue = queue.then(async () => {
      // one after the other: a copy or a shuffled batch arrives in the order it is sent
      for (const item of items) {
        await options.forward(item.delivery, item.label).catch(() => undefined);
      }
    });
  };
  let held: Held[] = [];
  let numbered = 0;
  let idle: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(idle);
    idle = undefined;
    if (held.length === 0) {
      return;
    }
    const batch = options.shuffle(held);
    held = [];
    const order = batch.map((h) => `#${h.n}`).join(', ');
    options.out(`${clock()} forwarding held ${order} (--reorder ${options.reorder}: shuffled)`);
    send(batch);
  };
  return {
    take(delivery, label) {
      const copies = options.duplicate() ? 2 : 1;
      if (options.reorder === 0) {
        return {
          marker: copies === 2 ? 'dup: forwarded twice' : undefined,
          start: () => send(Array.from({ length: copies }, () => ({ delivery, label }))),
        };
      }
      const items = Array.from({ length: copies }, () => ({ n: ++numbered, delivery, label }));
      const numbers = items.map((h) => `#${h.n}`).join(' and ');
      return {
        marker: copies === 2 ? `dup: held ${numbers}` : `held ${numbers}`,
        start() {
          for (const item of items) {
            held.push(item);
            if (held.length >= options.reorder) {
              flush();
            }
          }
          if (held.length > 0) {
            clearTimeout(idle);
            idle = setTimeout(flush, options.idleMs).unref();
          }
        },
      };
    },
    async drain() {
      flush();
      await queue;
    },
  };
}

const clock = () => new Date().toTimeString().slice(0, 8);
