import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Rec } from '../../store';
import type { AppEnv } from '../app-env';
import type { Clock } from '../clock';
import { ApiError } from '../errors';
import { isMultipart } from '../http/body-limit';
import { hasBody } from '../http/has-body';
import { sha256Hex } from '../ids';
import type { Runtime } from '../runtime';
import { drain, fingerprinting } from './multipart';

export type IdempotencyRecord = Rec & {
  credential_id: string;
  /**
   * The workspace the answer is of: its 24 hours run on that workspace's clock, and it goes when
   * the workspace is deleted. Absent in records kept before, and for an app's revocation, which
   * is of no workspace: those run on the server's clock.
   */
  workspace_id?: string;
  fingerprint: string;
  status: number;
  body: string;
  created_at: string;
};

declare module '../../store/collections' {
  interface GlobalCollections {
    idempotency_keys: IdempotencyRecord;
  }
}

const RETAIN_MS = 24 * 60 * 60 * 1000; // spec, Limits: remembered 24 hours
const MAX_KEY_LENGTH = 255;
const PURGE_TASK = 'idempotency:purge';
/** With several nodes, how often each clears keys past their 24 hours from the shared table. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

// spec, Limits: Idempotency-Key on POST, PATCH and DELETE, per credential. A replay returns the
// first status and body with Idempotent-Replayed: true; the same key with another request, or
// while its first request is still running, is 409. Answers of 5xx are not kept, so a retry
// after a fault runs again, as the spec's advice to retry 5xx with the same key needs.
export class Idempotency {
  readonly #rt: Pick<Runtime, 'store' | 'clock' | 'clocks' | 'scheduler'>;
  readonly #running = new Set<string>();

  constructor(rt: Pick<Runtime, 'store' | 'clock' | 'clocks' | 'scheduler'>) {
    this.#rt = rt;
  }

  /** Schedules the purge of whatever the store already holds. */
  start(): void {
    this.#schedulePurge();
  }

  middleware(): MiddlewareHandler<AppEnv> {
    // A request without a key passes straight on, not through an async step of its own.
    return (c, next) => {
      const key = c.req.header('Idempotency-Key');
      if (key === undefined || !['POST', 'PATCH', 'DELETE'].includes(c.req.method)) {
        return next();
      }
      return this.#keyed(c, next, key);
    };
  }

  /**
   * A keyed request that a route answers itself, outside the credential layer (the OAuth
   * endpoints, whose caller is an app): `scope` stands for the credential, `fingerprint` for the
   * request, and `seal` keeps the answer as the data file holds it. Run once, replayed after,
   * refused (ApiError) when the key is malformed, still running, or was used for another request.
   */
  async once(
    sent: { scope: string; key: string; fingerprint: string; seal: Seal },
    run: () => Promise<KeptAnswer>,
  ): Promise<KeptAnswer & { replayed: boolean }> {
    const id = keyId(sent.scope, sent.key);
    this.#refuseRunning(id);
    const found = this.#live(id);
    const earlier = found instanceof Promise ? await found : found;
    if (earlier) {
      this.#refuseOther(earlier, [sent.fingerprint]);
      return { status: earlier.status, body: sent.seal.open(earlier.body), replayed: true };
    }
    this.#running.add(id);
    try {
      const answer = await run();
      if (remembered(answer.status)) {
        await this.#remember({
          id,
          credential_id: sent.scope,
          ...(answer.workspaceId === undefined ? {} : { workspace_id: answer.workspaceId }),
          fingerprint: sent.fingerprint,
          status: answer.status,
          body: sent.seal.close(answer.body),
          created_at: this.#clockOf(answer.workspaceId).iso(),
        });
      }
      return { ...answer, replayed: false };
    } finally {
      this.#running.delete(id);
    }
  }

  /** A write sent with a key: run once, replayed after, refused when it differs or overlaps. */
  async #keyed(c: Context<AppEnv>, next: Next, key: string): Promise<Response | undefined> {
    const credential = c.get('ctx').credential;
    const id = keyId(credential.id, key);
    const url = new URL(c.req.url);
    const head = `${c.req.method} ${url.pathname}?${sortedQuery(url)}\n`;
    const type = c.req.header('Content-Type');
    // Only an upload is read as a stream: asking for `body` costs a full Request (has-body.ts).
    const body = isMultipart(type) && hasBody(c) ? c.req.raw.body : null;
    if (body !== null) {
      return this.#keyedStream(c, next, { id, credentialId: credential.id, head, body, type });
    }
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const raw = createHash('sha256').update(head).update(bytes).digest('hex');
    const json = canonicalJson(bytes, type);
    const fingerprint =
      json === undefined ? raw : createHash('sha256').update(`${head}json:${json}`).digest('hex');

    this.#refuseRunning(id);
    const found = this.#live(id);
    const earlier = found instanceof Promise ? await found : found;
    if (earlier) {
      // A key stored before JSON bodies were compared by content holds the raw fingerprint.
      this.#refuseOther(earlier, [fingerprint, raw]);
      return replay(c, earlier);
    }
    return this.#run(c, next, id, credential.id, async () => fingerprint);
  }

  /**
   * A keyed upload (multipart): its body is fingerprinted as it streams to the route, never held
   * in memory. A replay or a refusal reads it through to its end first; a first run whose answer
   * came before its body was read to the end is not remembered: there is no fingerprint of the
   * whole request to hold it to, and a retry runs again.
   */
  async #keyedStream(
    c: Context<AppEnv>,
    next: Next,
    sent: {
      id: string;
      credentialId: string;
      head: string;
      body: ReadableStream<Uint8Array>;
      type: string | undefined;
    },
  ): Promise<Response | undefined> {
    this.#refuseRunning(sent.id);
    const found = this.#live(sent.id);
    const earlier = found instanceof Promise ? await found : found;
    const print = await fingerprinting(sent.head, sent.body, sent.type ?? '');
    if (earlier) {
      await drain(print.body);
      const prints = await print.done();
      this.#refuseOther(earlier, prints ? [prints.content, prints.raw] : []);
      return replay(c, earlier);
    }
    c.req.raw = new Request(c.req.raw, { body: print.body, duplex: 'half' } as RequestInit);
    return this.#run(c, next, sent.id, sent.credentialId, async () => {
      const prints = await print.done();
      return prints && (prints.content ?? prints.raw);
    });
  }

  #refuseRunning(id: string): void {
    if (this.#running.has(id)) {
      throw new ApiError(
        'conflict',
        'the first request with this Idempotency-Key is still running',
      );
    }
  }

  #refuseOther(earlier: IdempotencyRecord, prints: (string | undefined)[]): void {
    if (!prints.includes(earlier.fingerprint)) {
      throw new ApiError(
        'conflict',
        'this Idempotency-Key was already used for a different request',
        'Idempotency-Key',
      );
    }
  }

  /** The first request with a key: run, and its answer remembered with its fingerprint. */
  async #run(
    c: Context<AppEnv>,
    next: Next,
    id: string,
    credentialId: string,
    fingerprintOf: () => Promise<string | undefined>,
  ): Promise<undefined> {
    // The key stays running until its answer is remembered: a duplicate arriving while the
    // answer is read back would otherwise find neither and run the write a second time.
    this.#running.add(id);
    try {
      await next();
      const fingerprint = await fingerprintOf();
      if (fingerprint !== undefined && remembered(c.res.status)) {
        const answer = await c.res.clone().text();
        const workspaceId = c.get('ctx').credential.workspaceId;
        await this.#remember({
          id,
          credential_id: credentialId,
          workspace_id: workspaceId,
          fingerprint,
          status: c.res.status,
          body: answer,
          created_at: this.#clockOf(workspaceId).iso(),
        });
      }
    } finally {
      this.#running.delete(id);
    }
    return undefined;
  }

  /**
   * The key's answer, if kept and not past its 24 hours. With several nodes, read from the table
   * every node keeps them in (store/pg/kept-answers.ts), the key counted as running meanwhile, so
   * that a duplicate arriving during the read is 409 as on one node; else at once (no turn of the
   * event loop between the running check and the run).
   */
  #live(id: string): IdempotencyRecord | undefined | Promise<IdempotencyRecord | undefined> {
    const kept = this.#rt.store.cluster?.kept;
    if (kept === undefined) {
      const rec = this.#rt.store.global.get('idempotency_keys', id);
      return rec && !this.#expired(rec) ? rec : undefined;
    }
    this.#running.add(id);
    return kept
      .get(id)
      .then((text) => {
        const rec = text === undefined ? undefined : (JSON.parse(text) as IdempotencyRecord);
        return rec && !this.#expired(rec) ? rec : undefined;
      })
      .finally(() => this.#running.delete(id));
  }

  #clockOf(workspaceId: string | undefined): Clock {
    return workspaceId === undefined ? this.#rt.clock : this.#rt.clocks.of(workspaceId);
  }

  /** Past its 24 hours on its workspace's clock. */
  #expired(rec: IdempotencyRecord): boolean {
    return Date.parse(rec.created_at) + RETAIN_MS <= this.#clockOf(rec.workspace_id).nowMs();
  }

  async #remember(rec: IdempotencyRecord): Promise<void> {
    const kept = this.#rt.store.cluster?.kept;
    if (kept) {
      await kept.put(rec.id, rec.workspace_id ?? null, JSON.stringify(rec));
    } else {
      this.#rt.store.transaction((tx) => tx.global.put('idempotency_keys', rec));
    }
    if (!this.#rt.scheduler.has(PURGE_TASK)) {
      this.#schedulePurge();
    }
  }

  #schedulePurge(): void {
    const kept = this.#rt.store.cluster?.kept;
    if (kept) {
      // A key kept 24 hours of real time is past its 24 hours on any clock: clocks only move on.
      this.#rt.scheduler.schedule(PURGE_TASK, this.#rt.clock.nowMs() + PURGE_EVERY_MS, () =>
        kept.purge(RETAIN_MS).finally(() => this.#schedulePurge()),
      );
      return;
    }
    let oldest = Number.POSITIVE_INFINITY;
    for (const rec of this.#rt.store.global.values('idempotency_keys')) {
      oldest = Math.min(oldest, Date.parse(rec.created_at));
    }
    if (oldest !== Number.POSITIVE_INFINITY) {
      this.#rt.scheduler.schedule(PURGE_TASK, oldest + RETAIN_MS, () => this.#purge());
    }
  }

  #purge(): void {
    this.#rt.store.transaction((tx) => {
      for (const rec of tx.global.all('idempotency_keys')) {
        if (this.#expired(rec)) {
          tx.global.delete('idempotency_keys', rec.id);
        }
      }
    });
    this.#schedulePurge();
  }
}

/** An answer as a key keeps it: its status and its body's text. */
export interface KeptAnswer {
  status: number;
  body: string;
  /** The workspace the answer is of, when the credential is no workspace's own (see once). */
  workspaceId?: string | undefined;
}

/** How a kept answer is written into the data file and read back (OAuth's are encrypted). */
export interface Seal {
  close(body: string): string;
  /** Throws when the kept text cannot be opened with what this request brought. */
  open(kept: string): string;
}

/** The record a key is kept under, per credential (spec, Limits: a key is the caller's own). */
function keyId(scope: string, key: string): string {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new ApiError(
      'invalid_request',
      `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`,
      'Idempotency-Key',
    );
  }
  return sha256Hex(`${scope}\u0000${key}`);
}

/**
 * Which answers a key keeps: not 5xx or 429 (a retry should run again), nor a 413, whose body is
 * refused part-way, so there is no whole request to hold the key to (decisions.md, Idempotency).
 */
const remembered = (status: number): boolean => status < 500 && status !== 429 && status !== 413;

const replay = (c: Context<AppEnv>, earlier: IdempotencyRecord): Response =>
  c.body(replayBody(earlier, c.get('requestId')), earlier.status as 200, {
    'Content-Type': 'application/json',
    'Idempotent-Replayed': 'true',
  });

// spec, Errors: an error's request_id equals the X-Request-Id header. A replay is a request of
// its own with its own id, so a replayed error names it; the rest of the body is the first one.
function replayBody(earlier: IdempotencyRecord, requestId: string): string {
  if (earlier.status < 400) {
    return earlier.body;
  }
  const body = JSON.parse(earlier.body) as { error?: { request_id?: string } };
  if (body.error) {
    body.error.request_id = requestId;
  }
  return JSON.stringify(body);
}

function sortedQuery(url: URL): string {
  const params = [...url.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(params).toString();
}

// decisions.md: a JSON body is compared by what it says, not how it is spaced or ordered, so a
// client library that serialises its retry afresh is not refused as a different request.
// Bytes that are not valid UTF-8 JSON keep their raw fingerprint (undefined here).
function canonicalJson(body: Uint8Array, contentType: string | undefined): string | undefined {
  if (!contentType?.toLowerCase().includes('json') || body.length === 0) {
    return undefined;
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    return JSON.stringify(JSON.parse(text), sortedKeys);
  } catch {
    return undefined;
  }
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return value;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
