import { setMaxListeners } from 'node:events';
import type { Workspace } from '../platform/auth';
import type { Deliveries, RuntimeBase } from '../platform/runtime';
import type { Webhook } from '../resources';
import { type Change, GLOBAL, type TxScope, type WorkspaceCollections } from '../store';
import { leased } from '../store/held';
import { deliverOrFault } from './faulted';
import { flushUpdate } from './outbox';
import { outgoing } from './outgoing';
import { TIMEOUT_MS } from './policy';
import { Pool, pause } from './pool';
import { type Delivery, isOpen, type PendingUpdate } from './records';
import type { Outgoing } from './send';
import { cancelDelivery, cancelOpen, settleAttempt } from './settle';
import { DAY, sweep, sweepWorkspace } from './sweep';

// DESIGN, Outbox and worker: deliveries are persisted rows; the worker schedules every open one
// on the clock (at start, and as commits add them), sends it, and writes what came of it. Retry
// timing follows the clock, so moving the clock plays a retry schedule through.

type Ws = TxScope<WorkspaceCollections>;

const deliveryKey = (wsId: string, id: string) => `delivery:${wsId}:${id}`;
const flushKey = (wsId: string, id: string) => `coalesce:${wsId}:${id}`;
const SWEEP_KEY = 'deliveries:sweep';

/**
 * How long a node's claim on an attempt keeps others from sending it (several nodes): past the
 * longest a receiver is waited for, so only a node lost mid-way is ever taken over, seconds after.
 */
const CLAIM_MS = TIMEOUT_MS + 5_000;

/** Sends at once across all subscriptions; a few per subscription (see Pool). */
const CONCURRENCY = 256;
const PER_SUBSCRIPTION = 8;
/** Several nodes: how soon a send finding its subscription's slots full on other nodes looks again, at first and at most. */
const SLOT_WAIT_MS = 25;
const SLOT_WAIT_MAX_MS = 500;
/** A send the database failed mid-way goes again this much later. */
const RETRY_ERROR_MS = 1000;

/** A send in its slot: what it sends and its claim (several nodes), or what the delivery is. */
type Ready = { out: Outgoing; claim?: string } | { stays: Delivery | undefined };

export class DeliveryWorker implements Deliveries {
  readonly #rt: RuntimeBase;
  readonly #pool = new Pool(CONCURRENCY, PER_SUBSCRIPTION);
  readonly #stop = new AbortController();
  /** Deliveries being sent right now: a second start of the same one waits its turn. */
  readonly #sending = new Set<string>();
  /** Per workspace, the open deliveries its caller sends (a resend, a test send): never scheduled. */
  readonly #unsent = new Map<string, Set<string>>();

  constructor(rt: RuntimeBase) {
    this.#rt = rt;
    // Every send in flight listens for the shutdown: as many listeners as sends may run.
    setMaxListeners(CONCURRENCY + 1, this.#stop.signal);
  }

  /** Schedules every open delivery and held update the store holds, then follows commits. */
  start(): void {
    const { store } = this.#rt;
    cancelWithSubscriptions(this.#rt);
    store.onLoaded((wsId) => {
      const scoped = store.workspace(wsId);
      for (const d of scoped.values('deliveries')) {
        this.#follow(wsId, d, true);
      }
      for (const p of scoped.values('pending_updates')) {
        this.#hold(wsId, p);
      }
    });
    // Away from memory (PostgreSQL), it missed the daily sweeps: swept before it is first read,
    // its log keeps 30 days all the same.
    store.onInstall((wsId) => sweepWorkspace(this.#rt, wsId));
    store.onApplied((changes) => {
      for (const change of changes) {
        if (change.scope === GLOBAL) {
          this.#clockMoved(change);
          continue;
        }
        if (change.coll === 'deliveries') {
          const after = change.after as Delivery | undefined;
          if (after) {
            this.#follow(change.scope, after, false);
          } else {
            this.#rt.scheduler.cancel(deliveryKey(change.scope, change.id));
            this.#unsentIs(change.scope, change.id, false);
          }
        } else if (change.coll === 'pending_updates') {
          const after = change.after as PendingUpdate | undefined;
          if (after) {
            this.#hold(change.scope, after);
          } else {
            this.#rt.scheduler.cancel(flushKey(change.scope, change.id));
          }
        }
      }
    });
    this.#sweepLater();
  }

  /**
   * A workspace's clock moved on (its record's offset grew): the delivery log it keeps is swept on
   * that clock at once, as the daily sweep would have on the way. Its retries ran as it moved.
   */
  #clockMoved(change: Change): void {
    if (change.coll !== 'workspaces') {
      return;
    }
    const offset = (rec: unknown) => (rec as Workspace | undefined)?.clock_offset_ms ?? 0;
    if (change.after !== undefined && offset(change.after) > offset(change.before)) {
      // Not inside the commit that moved it: a transaction of its own, once this one is done.
      queueMicrotask(() => sweepWorkspace(this.#rt, change.id));
    }
  }

  /** Aborts sends in flight (shutdown): they are neither logged nor settled, and go again later. */
  stop(): void {
    this.#stop.abort();
  }

  get sending(): number {
    return this.#pool.running;
  }

  unsentIn(wsId: string): boolean {
    return (this.#unsent.get(wsId)?.size ?? 0) > 0;
  }

  /** Keeps #unsent: a delivery open with no attempt scheduled is its caller's to send. */
  #unsentIs(wsId: string, id: string, open: boolean): void {
    const ids = this.#unsent.get(wsId);
    if (open) {
      this.#unsent.set(wsId, (ids ?? new Set()).add(id));
    } else if (ids?.delete(id) && ids.size === 0) {
      this.#unsent.delete(wsId);
    }
  }

  #follow(wsId: string, d: Delivery, atStart: boolean): void {
    const key = deliveryKey(wsId, d.id);
    this.#unsentIs(wsId, d.id, isOpen(d) && !this.#held(d) && d.next_attempt_at === null);
    if (!isOpen(d) || this.#held(d)) {
      this.#rt.scheduler.cancel(key);
    } else if (d.next_attempt_at !== null) {
      this.#rt.scheduler.schedule(
        key,
        Date.parse(d.next_attempt_at),
        () => this.attempt(wsId, d.id),
        wsId,
      );
    } else if (atStart) {
      // A resend or test send (its caller sends it) cut short by a restart: it goes now.
      this.#rt.scheduler.schedule(
        key,
        this.#rt.clocks.of(wsId).nowMs(),
        () => this.attempt(wsId, d.id),
        wsId,
      );
    }
  }

  #held(d: Delivery): boolean {
    return this.#rt.config.heldWebhooks?.has(d.webhook_id) ?? false;
  }

  #hold(wsId: string, p: PendingUpdate): void {
    this.#rt.scheduler.schedule(
      flushKey(wsId, p.id),
      Date.parse(p.due_at),
      () => flushUpdate(this.#rt, wsId, p.id),
      wsId,
    );
  }

  /**
   * One attempt of an open delivery: sent once its change is on disk (a delivery never announces
   * a change that a crash could still lose), then logged, settled, retried or stopped.
   */
  async attempt(wsId: string, id: string): Promise<Delivery | undefined> {
    const ws = this.#rt.store.workspace(wsId);
    const d = ws.get('deliveries', id);
    if (!d || !isOpen(d) || this.#sending.has(id) || this.#held(d)) {
      return d;
    }
    if (
      d.next_attempt_at !== null &&
      Date.parse(d.next_attempt_at) > this.#rt.clocks.of(wsId).nowMs()
    ) {
      // Not due yet: scheduled for a time another node's attempt has since moved on (several
      // nodes), it waits for its own.
      this.#follow(wsId, d, false);
      return d;
    }
    if (!outgoing(this.#rt, wsId, id)) {
      return cancelOpen(this.#rt, wsId, id);
    }
    this.#sending.add(id);
    try {
      return await this.#send(wsId, d);
    } catch (err) {
      // The database away mid-way (several nodes ask it for faults and slots): tried again.
      if (!this.#stop.signal.aborted) {
        this.#later(wsId, id, RETRY_ERROR_MS);
      }
      throw err;
    } finally {
      this.#sending.delete(id);
    }
  }

  async #send(wsId: string, d: Delivery): Promise<Delivery | undefined> {
    const { store } = this.#rt;
    const cluster = store.cluster;
    await store.sync();
    const send = () =>
      this.#pool.run(d.webhook_id, async () => {
        const ready = await this.#ready(wsId, d);
        if ('stays' in ready) {
          return ready.stays;
        }
        const { out, claim } = ready;
        // Held while this node sends and writes back: the claim lapses only with the node.
        const renew =
          claim === undefined
            ? undefined
            : setInterval(
                () => void cluster?.claims.renew(claim, CLAIM_MS).catch(() => undefined),
                CLAIM_MS / 3,
              );
        try {
          const at = this.#rt.clocks.of(wsId).iso(); // when it went out, after any wait for a slot
          const result = await deliverOrFault(this.#rt, wsId, out, this.#stop.signal);
          if (this.#stop.signal.aborted) {
            return undefined;
          }
          // Settled before the slot is let go, so the delivery waiting for it sees what this one
          // did: a 410 deleting the subscription, or a 50th failure switching it off.
          return await leased(this.#rt.store, [wsId], () =>
            settleAttempt(this.#rt, wsId, d.id, { n: out.attempt, at, result }),
          );
        } finally {
          clearInterval(renew);
          if (claim !== undefined && !this.#stop.signal.aborted) {
            // The slot goes once the write-back is in PostgreSQL, where the next holder reads it.
            await store.sync().catch(() => undefined);
            await cluster?.claims.done(claim).catch(() => undefined);
          }
        }
      });
    // Several nodes: nobody waits on the workspace's lease while the receiver answers.
    return cluster ? cluster.without(wsId, send) : send();
  }

  /**
   * In its send slot, the delivery read again: while it waited for the disk and for the slot, its
   * subscription may have been deleted (DELETE, a 410), switched off or given a new secret. With
   * several nodes its attempt is claimed first, so that it goes once whichever node reads it open,
   * in one of its subscription's slots over every node (waited for, as a slot is here); read after
   * that, as the last node left it, it sees what the send that held the slot before it wrote.
   * What to send and the claim; or, when it does not go now, what the delivery is.
   */
  async #ready(wsId: string, d: Delivery): Promise<Ready> {
    const store = this.#rt.store;
    const cluster = store.cluster;
    if (cluster === undefined) {
      const ready = this.#now(wsId, d.id, undefined);
      return 'cancel' in ready ? { stays: cancelOpen(this.#rt, wsId, d.id) } : ready;
    }
    const seen = store.workspace(wsId).get('deliveries', d.id) ?? d;
    const claim = `delivery:${wsId}:${d.id}:${seen.attempts.length + 1}`;
    const group = { name: `${wsId}:${d.webhook_id}`, max: PER_SUBSCRIPTION };
    for (let waitMs = SLOT_WAIT_MS; ; waitMs = Math.min(2 * waitMs, SLOT_WAIT_MAX_MS)) {
      const claimed = await cluster.claims.claim(claim, CLAIM_MS, group);
      if (claimed.won) {
        break;
      }
      if (!claimed.full) {
        // Another node's: the claim is kept past its attempt, so that a node that read the
        // delivery open before it was settled still finds it; looked at again once it lapses.
        this.#later(wsId, d.id, claimed.leftMs);
        return { stays: d };
      }
      if (cluster.leased(wsId)) {
        // This node holds the workspace (a clock move runs this send), which the sends holding
        // the slots may wait on to write back: it goes once they have, in real time, as a task
        // does, with its own share of the lease (the send lets that share go while it waits).
        const again = () => leased(store, [wsId], () => this.attempt(wsId, d.id));
        setTimeout(() => void again().catch(() => undefined), waitMs).unref();
        return { stays: d };
      }
      if (!(await pause(waitMs, this.#stop.signal))) {
        return { stays: undefined };
      }
    }
    try {
      // Read as the last node left it; the lease only for a cancel, the slot let go first.
      (await store.residency?.holdAll([wsId]))?.();
      const ready = this.#now(wsId, d.id, claim);
      if ('out' in ready) {
        return ready;
      }
      await cluster.claims.done(claim);
      return 'cancel' in ready
        ? { stays: await leased(store, [wsId], () => cancelOpen(this.#rt, wsId, d.id)) }
        : ready;
    } catch (err) {
      await cluster.claims.done(claim).catch(() => undefined);
      throw err;
    }
  }

  /** What the delivery sends now, as memory holds it; or that it is cancelled, or waits. */
  #now(wsId: string, id: string, claim: string | undefined): Ready | { cancel: true } {
    const out = outgoing(this.#rt, wsId, id);
    const now = this.#rt.store.workspace(wsId).get('deliveries', id);
    const due = now?.next_attempt_at ? Date.parse(now.next_attempt_at) : undefined;
    if (now && due !== undefined && due > this.#rt.clocks.of(wsId).nowMs()) {
      // Not due: another node's attempt went meanwhile (several nodes).
      this.#follow(wsId, now, false);
      return { stays: now };
    }
    if (!out) {
      return { cancel: true };
    }
    if (claim !== undefined && !claim.endsWith(`:${out.attempt}`)) {
      // Another node's attempt went between the claim and this read: this one waits its turn.
      this.#later(wsId, id, 0);
      return { stays: now };
    }
    return claim === undefined ? { out } : { out, claim };
  }

  /** Another node claimed the attempt: this one looks again once the claim has lapsed. */
  #later(wsId: string, id: string, ms: number): void {
    this.#rt.scheduler.schedule(
      deliveryKey(wsId, id),
      this.#rt.clocks.of(wsId).nowMs() + Math.ceil(ms) + 1,
      () => this.attempt(wsId, id),
      wsId,
    );
  }

  /** Settled deliveries and their events older than the log keeps go, once a day. */
  #sweepLater(): void {
    this.#rt.scheduler.schedule(SWEEP_KEY, this.#rt.clock.nowMs() + DAY, () => {
      sweep(this.#rt);
      this.#sweepLater();
    });
  }

  /** Creates a delivery and sends it once, now: a resend or a test send from the log. */
  async sendOnce(wsId: string, create: (ws: Ws, now: string) => Delivery): Promise<Delivery> {
    const created = this.#rt.store.transaction((tx) =>
      create(tx.workspace(wsId), this.#rt.clocks.of(wsId).iso()),
    );
    return (await this.attempt(wsId, created.id)) ?? created;
  }
}

/**
 * Runs inside every commit: a subscription deleted (DELETE, a 410) or switched off (its key
 * revoked, a 50th failure) sends nothing more, so its open deliveries are cancelled with it.
 */
function cancelWithSubscriptions(rt: RuntimeBase): void {
  rt.store.onCommit((changes, tx) => {
    // A restore brings the deliveries back as they were, open or cancelled.
    if (tx.quiet) {
      return;
    }
    for (const change of changes) {
      if (change.scope === GLOBAL || change.coll !== 'webhooks') {
        continue;
      }
      const before = change.before as Webhook | undefined;
      const after = change.after as Webhook | undefined;
      if (after === undefined || (after.disabled_at !== null && before?.disabled_at === null)) {
        const ws = tx.workspace(change.scope);
        const now = rt.clocks.of(change.scope).iso();
        for (const d of ws.all('deliveries')) {
          if (d.webhook_id === change.id && isOpen(d)) {
            cancelDelivery(ws, d, now);
          }
        }
      }
    }
  });
}
