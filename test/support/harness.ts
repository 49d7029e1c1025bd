import { createApp } from '../../src/app';
import type { Config } from '../../src/platform/config';
import type { Runtime } from '../../src/platform/runtime';
import { createRuntime, defaultConfig } from '../../src/runtime';
import { Store } from '../../src/store';
import type { V1Extension } from '../../src/v1';
import { Contract, type Exchange } from './contract';
import { ON_NODES, type TestNode, TestNodes } from './test-nodes';
import { testStore } from './test-store';

// Response bodies are whatever JSON the server sent; tests read them field by field.
// biome-ignore lint/suspicious/noExplicitAny: the one place JSON enters the tests untyped
export type Json = any;

export interface Reply {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

export interface CallOptions {
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** The test sends something the document does not allow on purpose: skip the request check. */
  invalid?: boolean;
  /** The scheme and host the request is addressed to (`http://localhost` when not given). */
  origin?: string;
}

export interface RawOptions extends CallOptions {
  /** Sent as is; no Content-Type is added. */
  body?: string | Uint8Array;
}

/** A client bound to one base (`/v1` or `/__admin`) and, for /v1, one credential. */
export class Client {
  readonly #h: Harness;
  readonly #base: '/v1' | '/__admin';
  readonly #auth: Record<string, string>;

  constructor(h: Harness, base: '/v1' | '/__admin', auth: Record<string, string> = {}) {
    this.#h = h;
    this.#base = base;
    this.#auth = auth;
  }

  get = (path: string, opts?: CallOptions) => this.#json('GET', path, undefined, opts);
  post = (path: string, body?: unknown, opts?: CallOptions) => this.#json('POST', path, body, opts);
  patch = (path: string, body?: unknown, opts?: CallOptions) =>
    this.#json('PATCH', path, body, opts);
  delete = (path: string, opts?: CallOptions) => this.#json('DELETE', path, undefined, opts);

  /** Any method, any bytes, any headers: for the malformed requests. */
  raw(method: string, path: string, opts: RawOptions = {}): Promise<Reply> {
    return this.#send(method, path, opts.body, opts.headers ?? {}, {
      ...opts,
      invalid: opts.invalid ?? true,
    });
  }

  #json(method: string, path: string, body: unknown, opts: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (body !== undefined) {
      headers['Content-Type'] ??= 'application/json';
    }
    return this.#send(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
      headers,
      opts,
    );
  }

  async #send(
    method: string,
    path: string,
    body: string | Uint8Array | undefined,
    headers: Record<string, string>,
    opts: CallOptions,
  ): Promise<Reply> {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      query.set(k, String(v));
    }
    const qs = query.toString();
    const allHeaders = { ...this.#auth, ...headers };
    // On PostgreSQL (test-store.ts), every idle workspace goes before every fourth request, which
    // then loads its own through its door: a door that forgets one fails the test. Every request
    // would double the suite's time on PostgreSQL.
    const node = await this.#h.next();
    if (this.#h.requests % EVICT_EVERY === 0) {
      node.rt.store.residency?.trim(0);
    }
    const res = await node.app.request(
      `${opts.origin ?? ''}${this.#base}${path}${qs ? `?${qs}` : ''}`,
      {
        method,
        headers: allHeaders,
        ...(body === undefined ? {} : { body }),
      },
    );
    const text = await res.text();
    const parsed = parseBody(text);
    const reply: Reply = { status: res.status, headers: res.headers, body: parsed, text };
    await this.#h.checkContract(
      this.#base,
      {
        method,
        path,
        query: Object.fromEntries(query),
        requestHeaders: lower(allHeaders),
        requestBody: typeof body === 'string' ? parseBody(body) : body,
        status: res.status,
        responseHeaders: lower(Object.fromEntries(res.headers)),
        responseBody: parsed,
      },
      opts.invalid ?? false,
    );
    return reply;
  }
}

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/** A body as JSON when it is JSON, as text when not (the contract check then says so). */
export function parseBody(text: string): Json {
  if (text === '') {
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// An app extended with fixture routes has a document of its own; identical documents share one.
const parsed = new Map<string, Promise<Contract>>();
function contractFor(doc: string): Promise<Contract> {
  const key = doc.replace(/"url":"http:\/\/[^"]*"/g, '');
  let contract = parsed.get(key);
  if (!contract) {
    contract = Contract.load(JSON.parse(doc) as object);
    parsed.set(key, contract);
  }
  return contract;
}

export interface TestWorkspace {
  id: string;
  name: string;
  keys: { write: { id: string; key: string }; read: { id: string; key: string } };
  /** Full-access client (Authorization: Bearer). */
  api: Client;
  /** Read-only client. */
  read: Client;
}

/** One app over a store of its own (in memory, or PostgreSQL: test-store.ts); each test mints its own workspaces through /__admin. */
/** Before one request in this many, a harness on PostgreSQL lets every idle workspace go. */
const EVICT_EVERY = 4;

export class Harness {
  /** Requests sent so far through its clients. */
  requests = 0;
  readonly admin: Client;
  readonly anonymous: Client;
  readonly #contracts = new Map<string, Promise<Contract>>();
  /** Its one node; or, in the `nodes` project, none: `#nodes` serve it. */
  readonly #one: TestNode | undefined;
  readonly #nodes: TestNodes | undefined;

  constructor(config: Partial<Config> = {}, opts: HarnessOptions = {}) {
    const cfg = defaultConfig({
      log: process.env.SVC_TEST_LOG ? (l) => process.stderr.write(`${l}\n`) : () => {},
      ...config,
    });
    if (ON_NODES && opts.store === undefined && opts.requestLogFile === undefined) {
      this.#nodes = new TestNodes(cfg, opts.extend);
    } else {
      // A harness over a request log file stands in for a restart over it, which a store in
      // memory allows (its log keeps another store's workspaces' calls); a new PostgreSQL schema
      // would be another store, not the same one restarted.
      const rt = createRuntime(
        opts.store ?? (opts.requestLogFile ? Store.memory() : testStore()),
        cfg,
        opts.requestLogFile,
      );
      this.#one = { rt, app: createApp(rt, opts.extend) };
    }
    this.admin = new Client(this, '/__admin');
    this.anonymous = new Client(this, '/v1');
  }

  /** The runtime of its (first) node: on several, read only after a request has started them. */
  get rt(): Runtime {
    return this.#first.rt;
  }

  get app(): ReturnType<typeof createApp> {
    return this.#first.app;
  }

  /** Every node's runtime: what a test starts or stops on each (the scheduler, say). */
  get runtimes(): Runtime[] {
    return this.#one ? [this.#one.rt] : (this.#nodes?.running ?? []).map((n) => n.rt);
  }

  get #first(): TestNode {
    const first = this.#one ?? this.#nodes?.running[0];
    if (first === undefined) {
      throw new Error('a harness with no node');
    }
    return first;
  }

  /** Its first node, started if it was not (on several, the first request starts them). */
  async started(): Promise<TestNode> {
    await this.#nodes?.open();
    return this.#first;
  }

  /** A request sent as is (a page, a form) to the next node in turn; its answer unchecked. */
  async request(input: string, init?: RequestInit): Promise<Response> {
    return (await this.next()).app.request(input, init);
  }

  /** The node the next request goes to: on several, each in turn. */
  async next(): Promise<TestNode> {
    const n = this.requests++;
    if (this.#one) {
      return this.#one;
    }
    const nodes = (await this.#nodes?.open()) ?? [];
    const node = nodes[n % nodes.length];
    if (node === undefined) {
      throw new Error('a harness with no node');
    }
    return node;
  }

  as(key: string, header: 'bearer' | 'x-api-key' = 'bearer'): Client {
    return new Client(
      this,
      '/v1',
      header === 'bearer' ? { Authorization: `Bearer ${key}` } : { 'X-API-Key': key },
    );
  }

  async workspace(body: Record<string, unknown> = {}): Promise<TestWorkspace> {
    const res = await this.admin.post('/workspaces', body);
    if (res.status !== 201) {
      throw new Error(`creating a workspace answered ${res.status}: ${res.text}`);
    }
    const ws = res.body as Omit<TestWorkspace, 'api' | 'read'>;
    return { ...ws, api: this.as(ws.keys.write.key), read: this.as(ws.keys.read.key) };
  }

  /** Fails the test on any violation of /v1/openapi.json or /__admin/openapi.json. */
  async checkContract(base: string, ex: Exchange, invalid: boolean): Promise<void> {
    let contract = this.#contracts.get(base);
    if (!contract) {
      contract = Promise.resolve(this.app.request(`${base}/openapi.json`))
        .then((r) => r.text())
        .then((doc) => contractFor(doc));
      this.#contracts.set(base, contract);
    }
    const problems = (await contract).check(ex, invalid);
    if (problems.length > 0) {
      throw new Error(problems.join('\n'));
    }
  }
}

export interface HarnessOptions {
  store?: Store;
  extend?: V1Extension;
  requestLogFile?: string;
}

export const harness = (config: Partial<Config> = {}, opts: HarnessOptions = {}) =>
  new Harness(config, opts);
