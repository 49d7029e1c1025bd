// A fixed, ordered set of a few hundred HTTP answers of a built svc, normalised so that two runs of
// one build give the same bytes: `diff` the dumps of two builds to see what a refactor changed
// (issue 36: "behaviour is unchanged: dump a fixed set of a few hundred answers before and after").
//
//   tsx scripts/answers.ts [--svc DIR] --out FILE     (DIR holds bin/svc.cjs and dist/; default .)
//
// Time: the seeded data file's clock offset is set so svc starts at T0, and before each request the
// control API moves the clock to the next whole minute (T0 + n minutes). Times svc makes then
// differ between runs only below the minute, and the dump floors them to it (`2026-11-02T15:07~`).
// What else differs between runs is replaced (see Normaliser): ids and tokens svc generated, by
// placeholders numbered in order of first appearance (`<id:3>`, `<tok:12>`; those the seed wrote
// stay as they are), request ids, durations, real-time signature stamps, the ports in use.
// Most of the file's length is the list of requests, one function per area.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A day after the seed's anchor (src/seed/index.ts SEED_ANCHOR_MS), so the demo data is current. */
const T0 = Date.parse('2026-11-02T15:00:00.000Z');
const MINUTE = 60_000;
/** An id no build ever makes: a well-formed uuid for the 404s. */
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const HEADERS_KEPT = [
  'content-type',
  'location',
  'x-ratelimit-limit',
  'retry-after',
  'idempotent-replayed',
  'allow',
];

interface Answer {
  n: number;
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: Json;
}

interface SeededWorkspace {
  id: string;
  keys: { write: { id: string; key: string }; read: { id: string; key: string } };
}

interface CallOptions {
  /** `write` (default for /v1), `read`, `none` (default elsewhere), or a whole header value. */
  auth?: 'write' | 'read' | 'none' | { header: string; value: string };
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** Large answers (whole-store snapshots) are kept as a digest, not in full. */
  digest?: boolean;
}

const jsonType = { 'content-type': 'application/json' };
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: tsx scripts/answers.ts [--svc DIR] --out FILE\n`);
  process.exit(2);
}

/** Reads a dotted path (`data.0.id`) of a parsed answer; undefined when absent. */
function pick(value: unknown, path: string): unknown {
  let at: unknown = value;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object') {
      return undefined;
    }
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** An id out of an earlier answer; a missing one becomes NO_SUCH_ID, so later calls still run. */
function idOf(value: unknown, path = 'id'): string {
  const id = pick(value, path);
  return typeof id === 'string' ? id : NO_SUCH_ID;
}

function textOf(value: unknown, path: string): string {
  const text = pick(value, path);
  return typeof text === 'string' ? text : '';
}

/** The svc process and what its seed said. */
interface Svc {
  url: string;
  child: ChildProcess;
  workspace: SeededWorkspace;
  seedText: string;
  dir: string;
}

function seed(svcDir: string, dataFile: string): { workspace: SeededWorkspace; seedText: string } {
  const bin = join(svcDir, 'bin/svc.cjs');
  const args = [bin, 'seed', '--data', dataFile, '--seed', '1', '--json'];
  const out = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (out.status !== 0) {
    throw new Error(`svc seed failed: ${out.stderr}`);
  }
  const seeded = JSON.parse(out.stdout) as { workspaces: SeededWorkspace[] };
  const workspace = seeded.workspaces[0];
  if (!workspace) {
    throw new Error('svc seed made no workspace');
  }
  return { workspace, seedText: readFileSync(dataFile, 'utf8') };
}

/** Starts the clock at T0: svc's start-up work (overdue invoices, expiries) then runs at T0 too. */
function startClockAtT0(dataFile: string, seedText: string): void {
  const offset = T0 - Date.now();
  const text = seedText.replace('"clock_offset_ms":0', `"clock_offset_ms":${offset}`);
  if (text === seedText) {
    throw new Error('the seeded data file has no "clock_offset_ms":0 to move');
  }
  writeFileSync(dataFile, text);
}

async function startSvc(svcDir: string): Promise<Svc> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-answers-'));
  const dataFile = join(dir, 'data.json');
  const { workspace, seedText } = seed(svcDir, dataFile);
  startClockAtT0(dataFile, seedText);
  const args = ['serve', '--data', dataFile, '--port', '0', '--allow-local-targets'];
  const child = spawn(process.execPath, [join(svcDir, 'bin/svc.cjs'), ...args], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stdout = child.stdout;
  if (!stdout) {
    throw new Error('svc serve has no stdout');
  }
  for await (const line of createInterface({ input: stdout })) {
    const ready = /^svc listening on (\S+)/.exec(line);
    if (ready?.[1]) {
      stdout.resume(); // keep draining what svc prints later
      return { url: ready[1], child, workspace, seedText, dir };
    }
  }
  throw new Error(`svc serve exited before listening (code ${child.exitCode})`);
}

async function stopSvc(svc: Svc): Promise<void> {
  if (svc.child.exitCode === null && svc.child.pid !== undefined) {
    const exited = once(svc.child, 'exit');
    process.kill(svc.child.pid, 'SIGTERM');
    await exited;
  }
  rmSync(svc.dir, { recursive: true, force: true });
}

/** A webhook receiver on loopback that takes every delivery (svc runs with --allow-local-targets). */
async function startReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

/** Sends the requests, one virtual minute apart, and keeps their answers in order. */
class Session {
  readonly answers: Answer[] = [];
  readonly #url: string;
  readonly #keys: { write: string; read: string };
  readonly digests = new Set<number>();

  constructor(url: string, workspace: SeededWorkspace) {
    this.#url = url;
    this.#keys = { write: workspace.keys.write.key, read: workspace.keys.read.key };
  }

  async #setClock(): Promise<void> {
    const set = new Date(T0 + (this.answers.length + 1) * MINUTE).toISOString();
    const res = await fetch(`${this.#url}/__admin/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ set }),
    });
    if (res.status !== 200) {
      throw new Error(`POST /__admin/clock {set: ${set}} answered ${res.status}`);
    }
    await res.arrayBuffer();
  }

  #headers(path: string, opts: CallOptions): Record<string, string> {
    const headers: Record<string, string> = { ...opts.headers };
    const auth = opts.auth ?? (path.startsWith('/v1/') ? 'write' : 'none');
    if (auth === 'write' || auth === 'read') {
      headers.authorization = `Bearer ${this.#keys[auth]}`;
    } else if (auth !== 'none') {
      headers[auth.header] = auth.value;
    }
    if (opts.body !== undefined && typeof opts.body !== 'string') {
      headers['content-type'] ??= 'application/json';
    }
    return headers;
  }

  /** One request; answers its parsed body, for the ids later requests name. */
  async call(method: string, path: string, opts: CallOptions = {}): Promise<Json> {
    await this.#setClock();
    const body =
      opts.form ??
      (opts.body === undefined
        ? undefined
        : typeof opts.body === 'string'
          ? opts.body
          : JSON.stringify(opts.body));
    const res = await fetch(this.#url + path, {
      method,
      headers: this.#headers(path, opts),
      body,
      redirect: 'manual',
    });
    const headers: Record<string, string> = {};
    for (const name of HEADERS_KEPT) {
      const value = res.headers.get(name);
      if (value !== null) {
        headers[name] = value;
      }
    }
    const parsed = await readBody(res);
    const n = this.answers.length + 1;
    if (opts.digest) {
      this.digests.add(n);
    }
    this.answers.push({ n, method, path, status: res.status, headers, body: parsed });
    return parsed;
  }
}

/** JSON parsed, text as text, anything else (PDFs, images) as its size and hash. */
async function readBody(res: Response): Promise<Json> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  if (bytes.length === 0) {
    return null;
  }
  if (type.includes('json')) {
    try {
      return JSON.parse(bytes.toString('utf8')) as Json;
    } catch {
      return { unparsed: bytes.toString('utf8') };
    }
  }
  if (type.startsWith('text/') || type.includes('javascript') || type.includes('xml')) {
    return bytes.toString('utf8');
  }
  return { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

// ---------------------------------------------------------------------------------------------
// The requests. Ids come from earlier answers; the order is fixed.

const FAMILY_LISTS: Array<{ path: string; filters: string[] }> = [
  {
    path: '/v1/jobs',
    filters: [
      'stage=approved',
      'job_type=retail',
      'archived=true',
      'archived=any',
      'created_after=2026-10-01',
    ],
  },
  { path: '/v1/contacts', filters: ['type=adjuster', 'type=homeowner&limit=5'] },
  { path: '/v1/tasks', filters: ['completed=true', 'appointments=true', 'due_after=2026-11-05'] },
  { path: '/v1/appointments', filters: ['completed=false'] },
  { path: '/v1/estimates', filters: ['status=draft', 'status=signed'] },
  { path: '/v1/invoices', filters: ['status=paid', 'status=overdue'] },
  { path: '/v1/payments', filters: ['payment_type=acv', 'payment_type=deductible'] },
  { path: '/v1/notes', filters: ['updated_since=2026-10-30T00:00:00Z'] },
  { path: '/v1/files', filters: ['category=photo', 'category=document'] },
  { path: '/v1/pins', filters: ['knock_result=interested', 'pin_type=inspection'] },
  { path: '/v1/storm_lists', filters: ['status=ready'] },
];

/** Lists of every family: plain, small pages followed by cursor, filters, bad values; then records. */
async function families(s: Session): Promise<Record<string, Json>> {
  const firstPages: Record<string, Json> = {};
  for (const { path, filters } of FAMILY_LISTS) {
    firstPages[path] = await s.call('GET', path);
    let page = await s.call('GET', `${path}?limit=3`);
    for (const _ of [1, 2]) {
      const cursor = textOf(page, 'next_cursor');
      if (cursor) {
        page = await s.call('GET', `${path}?limit=3&cursor=${encodeURIComponent(cursor)}`);
      }
    }
    await s.call('GET', `${path}?limit=500`);
    for (const filter of filters) {
      await s.call('GET', `${path}?${filter}`);
    }
    await s.call('GET', `${path}?cursor=not-a-cursor`);
    await s.call('GET', `${path}?created_after=yesterday`);
    await s.call('GET', `${path}?limit=abc`);
  }
  for (const { path } of FAMILY_LISTS) {
    if (path === '/v1/appointments') {
      continue; // appointments are tasks: read by id under /v1/tasks
    }
    for (const i of [0, 1, 2]) {
      await s.call('GET', `${path}/${idOf(firstPages[path], `data.${i}.id`)}`);
    }
    await s.call('GET', `${path}/${NO_SUCH_ID}`);
    await s.call('GET', `${path}/not-a-uuid`);
  }
  return firstPages;
}

async function subLists(s: Session, pages: Record<string, Json>): Promise<void> {
  const jobs = pages['/v1/jobs'];
  for (const i of [0, 1]) {
    const job = idOf(jobs, `data.${i}.id`);
    for (const sub of ['notes', 'files', 'photos', 'tasks', 'estimates', 'invoices', 'payments']) {
      await s.call('GET', `/v1/jobs/${job}/${sub}`);
    }
  }
  await s.call('GET', `/v1/jobs/${idOf(jobs, 'data.0.id')}/files?category=photo&limit=2`);
  await s.call('GET', `/v1/jobs/${NO_SUCH_ID}/notes`);
  const contacts = pages['/v1/contacts'];
  for (const i of [0, 1]) {
    await s.call('GET', `/v1/contacts/${idOf(contacts, `data.${i}.id`)}/jobs`);
  }
  await s.call('GET', `/v1/contacts/${NO_SUCH_ID}/jobs`);
  const lists = pages['/v1/storm_lists'];
  for (const i of [0, 1, 2]) {
    await s.call('GET', `/v1/storm_lists/${idOf(lists, `data.${i}.id`)}/properties?limit=5`);
  }
  const list = idOf(lists, 'data.1.id');
  await s.call('GET', `/v1/storm_lists/${list}/properties?mailable=true&residential=true&limit=5`);
  await s.call('GET', `/v1/storm_lists/${list}/properties?mailable=maybe`);
}

async function lookups(s: Session, pages: Record<string, Json>): Promise<void> {
  for (const path of ['ping', 'me', 'users', 'pipelines', 'stages', 'pipeline_stages', 'events']) {
    await s.call('GET', `/v1/${path}`);
  }
  await s.call('GET', '/v1/ping', { auth: 'read' });
  await s.call('GET', '/v1/estimate_templates');
  await s.call('GET', '/v1/estimate_templates?limit=1');
  const job = pick(pages['/v1/jobs'], 'data.0') as Record<string, unknown> | undefined;
  const address = typeof job?.address === 'string' ? job.address : 'nowhere';
  await s.call('GET', `/v1/jobs/search?address=${encodeURIComponent(address)}`);
  await s.call('GET', `/v1/jobs/search?name=roof&limit=3`);
  await s.call('GET', `/v1/jobs/search?job_number=${encodeURIComponent(String(job?.job_number))}`);
  await s.call('GET', '/v1/jobs/search');
  const contact = pick(pages['/v1/contacts'], 'data.0') as Record<string, unknown> | undefined;
  await s.call('GET', `/v1/contacts/search?email=${encodeURIComponent(String(contact?.email))}`);
  await s.call('GET', `/v1/contacts/search?phone=${encodeURIComponent(String(contact?.phone))}`);
  await s.call('GET', `/v1/contacts/search?name=${encodeURIComponent(String(contact?.last_name))}`);
  await s.call('GET', '/v1/contacts/search');
  const hailAddress = `${address}, San Antonio, TX`;
  await s.call('GET', `/v1/hail_history?address=${encodeURIComponent(hailAddress)}`);
  await s.call('GET', '/v1/hail_history?latitude=29.4237&longitude=-98.4925&since=2024-01-01');
  await s.call('GET', '/v1/hail_history');
  await s.call('GET', '/v1/hail_history?latitude=north&longitude=-98.4925');
  await s.call('GET', '/v1/webhooks/samples/job.created');
  await s.call('GET', '/v1/webhooks/samples/invoice.paid');
  await s.call('GET', '/v1/webhooks/samples/no.such_event');
}

async function authErrors(s: Session, pages: Record<string, Json>): Promise<void> {
  await s.call('GET', '/v1/jobs?limit=1', { auth: 'none' });
  await s.call('GET', '/v1/jobs?limit=1', {
    auth: { header: 'authorization', value: 'Bearer svc_live_nosuchkeynosuchkeynosuchkey00' },
  });
  await s.call('GET', '/v1/jobs?limit=1', {
    auth: { header: 'authorization', value: 'Basic abc' },
  });
  await s.call('GET', '/v1/ping', {
    auth: { header: 'x-api-key', value: 'svc_live_nosuchkeynosuchkeynosuchkey00' },
  });
  await s.call('GET', '/v1/jobs?limit=1', { auth: 'read' });
  const job = idOf(pages['/v1/jobs'], 'data.0.id');
  const read = { auth: 'read' as const };
  await s.call('POST', '/v1/jobs', { ...read, body: { name: 'R', address: '1 Main St' } });
  await s.call('PATCH', `/v1/jobs/${job}`, { ...read, body: { priority: 'low' } });
  await s.call('DELETE', `/v1/jobs/${job}`, read);
  await s.call('POST', '/v1/contacts', { ...read, body: { name: 'Read Only' } });
  await s.call('POST', '/v1/notes', { ...read, body: { job_id: job, content: 'no' } });
  await s.call('POST', '/v1/tasks', { ...read, body: { title: 'no' } });
  await s.call('POST', '/v1/payments', { ...read, body: { job_id: job, amount: 1 } });
  await s.call('POST', '/v1/pins', { ...read, body: { address: '1 Main St' } });
  await s.call('PUT', `/v1/jobs/${job}`, { body: { name: 'x' } });
  await s.call('GET', '/v1/no_such_family');
}

async function contactsAndJobs(s: Session): Promise<{ contact: string; job: string }> {
  await s.call('POST', '/v1/contacts', { body: {} });
  await s.call('POST', '/v1/contacts', { body: { name: 'Bad Email', email: 'not-an-email' } });
  await s.call('POST', '/v1/contacts', { body: { name: 'Bad Type', type: 'wizard' } });
  await s.call('POST', '/v1/contacts', { body: '{"name": ', headers: jsonType });
  const made = await s.call('POST', '/v1/contacts', {
    body: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '615-555-0148' },
  });
  const contact = idOf(made);
  await s.call('GET', `/v1/contacts/${contact}`);
  await s.call('PATCH', `/v1/contacts/${contact}`, { body: { company: 'Engines', email: null } });
  await s.call('PATCH', `/v1/contacts/${contact}`, { body: { email: 'nope' } });
  await s.call('GET', '/v1/contacts/search?phone=%2B16155550148');
  await s.call('POST', '/v1/jobs', { body: { name: 'No address' } });
  await s.call('POST', '/v1/jobs', { body: { name: 'Bad', address: '1 Main', stage: 'nope' } });
  await s.call('POST', '/v1/jobs', {
    body: { name: 'Bad', address: '1 Main', homeowner_id: NO_SUCH_ID },
  });
  const job = idOf(
    await s.call('POST', '/v1/jobs', {
      body: {
        name: 'Lovelace Roof',
        address: '12 Analytical Way',
        city: 'San Antonio',
        state: 'Texas',
        zip: '78205',
        homeowner_id: contact,
        priority: 'high',
        rcv_amount: 15000.5,
        deductible: 1000,
        tags: 'hail, wind',
        notes: 'First call from the homeowner.',
      },
    }),
  );
  await s.call('GET', `/v1/jobs/${job}`);
  await s.call('PATCH', `/v1/jobs/${job}`, { body: { stage: 'nope' } });
  await s.call('PATCH', `/v1/jobs/${job}`, { body: { stage: 'approved', lead_source: 'Web' } });
  await s.call('PATCH', `/v1/jobs/${job}`, { body: { city: null, tags: ['hail'] } });
  await s.call('GET', `/v1/jobs/${job}/notes`);
  await s.call('GET', `/v1/contacts/${contact}/jobs`);
  return { contact, job };
}

async function tasksAndNotes(s: Session, job: string, contact: string): Promise<void> {
  await s.call('POST', '/v1/notes', { body: { job_id: job } });
  await s.call('POST', '/v1/notes', { body: { job_id: NO_SUCH_ID, content: 'x' } });
  const note = idOf(
    await s.call('POST', '/v1/notes', {
      body: { job_id: job, content: 'Adjuster meeting booked.' },
      headers: { 'idempotency-key': 'answers-note-1' },
    }),
  );
  await s.call('POST', '/v1/notes', {
    body: { job_id: job, content: 'Adjuster meeting booked.' },
    headers: { 'idempotency-key': 'answers-note-1' },
  });
  await s.call('POST', '/v1/notes', {
    body: { job_id: job, content: 'Something else.' },
    headers: { 'idempotency-key': 'answers-note-1' },
  });
  await s.call('GET', `/v1/notes/${note}`);
  await s.call('POST', '/v1/tasks', { body: { title: 'Bad due', due_date: 'tomorrow' } });
  const task = idOf(
    await s.call('POST', '/v1/tasks', {
      body: {
        title: 'Order shingles',
        due_date: '2026-11-05T09:30:00-05:00',
        job_id: job,
        contact_id: contact,
        priority: 'high',
      },
    }),
  );
  await s.call('POST', '/v1/appointments', { body: { title: 'No type' } });
  const appointment = idOf(
    await s.call('POST', '/v1/appointments', {
      body: {
        title: 'Adjuster meeting',
        appointment_type: 'adjuster_meeting',
        due_date: '2026-11-06T14:00:00',
        duration_minutes: 60,
        job_id: job,
      },
    }),
  );
  await s.call('PATCH', `/v1/tasks/${task}`, { body: { completed: true } });
  await s.call('PATCH', `/v1/tasks/${task}`, { body: { priority: 'extreme' } });
  await s.call('PATCH', `/v1/tasks/${appointment}`, { body: { outcome: 'completed' } });
  await s.call('GET', `/v1/jobs/${job}/tasks`);
  await s.call('DELETE', `/v1/tasks/${task}`);
  await s.call('GET', `/v1/tasks/${task}`);
  await s.call('DELETE', `/v1/tasks/${task}`);
}

async function money(s: Session, job: string, contact: string): Promise<void> {
  await s.call('POST', '/v1/estimates', { body: { title: 'No job' } });
  await s.call('POST', '/v1/estimates', { body: { job_id: job, price: -5 } });
  const estimate = idOf(
    await s.call('POST', '/v1/estimates', {
      body: {
        job_id: job,
        title: 'Roof replacement',
        line_items: [
          { name: 'Tear off', quantity: 30, unit_price: 55 },
          { name: 'Architectural shingles', quantity: 30, unit_price: 210 },
        ],
      },
    }),
  );
  await s.call('PATCH', `/v1/estimates/${estimate}`, { body: { price: 9800 } });
  await s.call('POST', `/__admin/estimates/${estimate}/send`);
  await s.call('PATCH', `/v1/estimates/${estimate}`, { body: { title: 'Too late' } });
  await s.call('POST', `/__admin/estimates/${estimate}/view`);
  await s.call('POST', `/__admin/estimates/${estimate}/sign`, { body: { signer_name: 'Ada' } });
  await s.call('GET', `/v1/estimates/${estimate}`);
  await s.call('POST', '/v1/invoices', { body: { job_id: job, line_items: [] } });
  await s.call('POST', '/v1/invoices', {
    body: { job_id: job, line_items: [{ name: 'x', quantity: 1, unit_price: 1 }], tax_rate: 150 },
  });
  const invoice = idOf(
    await s.call('POST', '/v1/invoices', {
      body: {
        job_id: job,
        contact_id: contact,
        title: 'Deductible',
        purpose: 'deductible',
        due_date: '2026-11-20',
        line_items: [{ name: 'Deductible', quantity: 1, unit_price: 1000 }],
        tax_rate: 0,
      },
    }),
  );
  await s.call('PATCH', `/v1/invoices/${invoice}`, { body: { discount_type: 'amount' } });
  await s.call('PATCH', `/v1/invoices/${invoice}`, { body: { title: 'Deductible due' } });
  await s.call('POST', `/v1/invoices/${invoice}/mark_sent`);
  await s.call('PATCH', `/v1/invoices/${invoice}`, { body: { title: 'Too late' } });
  await s.call('POST', `/__admin/invoices/${invoice}/view`);
  await s.call('POST', '/v1/payments', { body: { job_id: job, amount: 0 } });
  await s.call('POST', '/v1/payments', {
    body: { job_id: job, amount: 10, invoice_id: NO_SUCH_ID },
  });
  const payment = idOf(
    await s.call('POST', '/v1/payments', {
      body: {
        job_id: job,
        amount: 400,
        invoice_id: invoice,
        payment_type: 'deductible',
        payment_method: 'check',
        check_number: '1001',
      },
    }),
  );
  await s.call('GET', `/v1/invoices/${invoice}`);
  await s.call('POST', `/__admin/payments/${payment}/refund`, { body: { amount: 50 } });
  await s.call('PATCH', `/__admin/payments/${payment}`, { body: { status: 'deposited' } });
  await s.call('GET', `/v1/payments/${payment}`);
  await s.call('GET', `/v1/jobs/${job}/payments`);
  await s.call('DELETE', `/v1/invoices/${invoice}`);
  await s.call('POST', `/v1/invoices/${invoice}/void`);
  await s.call('POST', `/v1/invoices/${invoice}/void`);
  await s.call('POST', `/v1/invoices/${invoice}/mark_sent`);
  const draft = idOf(
    await s.call('POST', '/v1/invoices', {
      body: { contact_id: contact, line_items: [{ name: 'Gutters', quantity: 2, unit_price: 75 }] },
    }),
  );
  await s.call('DELETE', `/v1/invoices/${draft}`);
  await s.call('GET', `/v1/invoices/${draft}`);
  await s.call('GET', `/v1/jobs/${job}`);
}

async function pinsAndFiles(s: Session, job: string): Promise<void> {
  await s.call('POST', '/v1/pins', { body: { notes: 'nowhere' } });
  const pin = idOf(
    await s.call('POST', '/v1/pins', {
      body: { latitude: 29.4501, longitude: -98.5012, knock_result: 'no_answer' },
    }),
  );
  await s.call('PATCH', `/v1/pins/${pin}`, { body: { knock_result: 'interested' } });
  await s.call('PATCH', `/v1/pins/${pin}`, { body: { knock_result: 'maybe' } });
  await s.call('POST', `/__admin/pins/${pin}/convert`);
  await s.call('DELETE', `/v1/pins/${pin}`);
  await s.call('GET', `/v1/pins/${pin}`);
  const door = idOf(
    await s.call('POST', '/v1/pins', {
      body: {
        address: '200 E Houston St',
        city: 'San Antonio',
        state: 'TX',
        homeowner_name: 'Lin',
      },
    }),
  );
  await s.call('POST', `/__admin/pins/${door}/convert`);
  await s.call('GET', `/v1/pins/${door}`);
  const form = new FormData();
  form.set('file', new Blob(['scope of work\n'], { type: 'text/plain' }), 'scope.txt');
  form.set('job_id', job);
  form.set('category', 'document');
  form.set('description', 'Scope notes');
  const file = await s.call('POST', '/v1/files', { form });
  await s.call('GET', `/v1/files/${idOf(file)}`);
  await s.call('POST', '/v1/files', { body: { job_id: job, url: 'ftp://example.com/a.jpg' } });
  await s.call('POST', '/v1/files', { body: { job_id: job } });
  await s.call('GET', `/v1/jobs/${job}/files`);
}

async function webhooks(s: Session, receiver: string): Promise<string> {
  await s.call('POST', '/v1/webhooks', { body: { event: 'job.created' } });
  await s.call('POST', '/v1/webhooks', {
    body: { event: 'no.such', target_url: `${receiver}/hook` },
  });
  const pair = await s.call('POST', '/v1/webhooks', {
    body: { events: ['job.created', 'job.updated'], target_url: `${receiver}/hook`, filters: {} },
  });
  const hook = idOf(
    await s.call('POST', '/v1/webhooks', {
      body: { event: 'contact.created', target_url: `${receiver}/contacts`, description: 'c' },
    }),
  );
  await s.call('POST', '/v1/webhooks', {
    body: {
      event: 'job.stage_changed',
      target_url: `${receiver}/s`,
      filters: { stage: 'Approved' },
    },
    auth: 'read',
  });
  await s.call('GET', '/v1/webhooks');
  await s.call('GET', '/v1/webhooks', { auth: 'read' });
  await s.call('GET', `/v1/webhooks/${hook}`);
  // The pair shares a created_at, so lists order it by its random ids: one goes before the pages
  // that list webhooks as HTML, where orderTies cannot reach.
  const updated = (pick(pair, 'data') as Json[] | undefined)?.find(
    (hook) => pick(hook, 'event') === 'job.updated',
  );
  await s.call('DELETE', `/v1/webhooks/${idOf(updated)}`);
  await s.call('GET', `/v1/webhooks/${idOf(updated)}`);
  await s.call('POST', '/v1/contacts', { body: { name: 'Grace Hopper', type: 'homeowner' } });
  await s.call('POST', `/__admin/webhooks/${hook}/test`, { body: {} });
  await s.call('POST', `/__admin/webhooks/${hook}/rotate_secret`);
  const deliveries = await s.call('GET', `/__admin/webhooks/${hook}/deliveries`);
  await s.call('POST', `/__admin/deliveries/${idOf(deliveries, 'data.0.id')}/resend`);
  await s.call('POST', `/__admin/deliveries/${NO_SUCH_ID}/resend`);
  await s.call('POST', `/__admin/webhooks/${hook}/enable`);
  return hook;
}

async function deletions(s: Session, job: string, contact: string): Promise<void> {
  await s.call('DELETE', `/v1/jobs/${job}`);
  await s.call('GET', `/v1/jobs/${job}`);
  await s.call('DELETE', `/v1/jobs/${job}`);
  await s.call('POST', `/__admin/jobs/${job}/restore`);
  await s.call('GET', `/v1/jobs/${job}`);
  await s.call('DELETE', `/v1/contacts/${contact}`);
  await s.call('GET', `/v1/contacts/${contact}`);
  await s.call('POST', `/__admin/contacts/${contact}/restore`);
  await s.call('POST', `/__admin/contacts/${NO_SUCH_ID}/restore`);
}

async function oauth(s: Session, workspace: string): Promise<void> {
  await s.call('POST', '/__admin/oauth/apps', { body: { name: 'No uris' } });
  const app = await s.call('POST', '/__admin/oauth/apps', {
    body: { name: 'Answers app', redirect_uris: ['https://app.example.com/callback'] },
  });
  const client = {
    client_id: textOf(app, 'client_id'),
    client_secret: textOf(app, 'client_secret'),
  };
  const redirect = 'https://app.example.com/callback';
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirect,
    state: 'st8',
  });
  const page = await s.call('GET', `/oauth/authorize?${query}`);
  await s.call('GET', '/oauth/authorize?response_type=code&client_id=nope');
  const pageToken = /name="page_token" value="([^"]*)"/.exec(String(page))?.[1] ?? '';
  const consent = (decision: string, token = pageToken) => ({
    auth: 'none' as const,
    body: new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirect,
      state: 'st8',
      scope: 'write',
      page_token: token,
      workspace_id: workspace,
      decision,
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  await s.call('POST', '/oauth/authorize', consent('allow', 'forged'));
  await s.call('POST', '/oauth/authorize', consent('deny'));
  await s.call('POST', '/oauth/authorize', consent('allow'));
  const location = s.answers.at(-1)?.headers.location ?? 'https://x/';
  const code = new URL(location).searchParams.get('code') ?? '';
  const token = await s.call('POST', '/v1/oauth/token', {
    auth: 'none',
    body: { grant_type: 'authorization_code', code, redirect_uri: redirect, ...client },
  });
  await s.call('POST', '/v1/oauth/token', {
    auth: 'none',
    body: { grant_type: 'authorization_code', code: 'nope', redirect_uri: redirect, ...client },
  });
  await s.call('POST', '/v1/oauth/token', {
    auth: 'none',
    body: { grant_type: 'refresh_token', refresh_token: 'x', ...client, client_secret: 'wrong' },
  });
  await s.call('POST', '/v1/oauth/token', {
    auth: 'none',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: textOf(token, 'refresh_token'),
      ...client,
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const bearer = `Bearer ${textOf(token, 'access_token')}`;
  await s.call('GET', '/v1/ping', { auth: { header: 'authorization', value: bearer } });
  await s.call('GET', '/__admin/oauth/apps');
  await s.call('GET', `/__admin/workspaces/${workspace}/connections`);
  await s.call('POST', '/v1/oauth/revoke', {
    auth: 'none',
    body: new URLSearchParams({ token: textOf(token, 'refresh_token'), ...client }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  await s.call('GET', '/v1/ping', { auth: { header: 'authorization', value: bearer } });
}

async function adminWorkspaces(s: Session, workspace: string): Promise<void> {
  await s.call('POST', '/__admin/workspaces', { body: { profile: 'nope' } });
  const made = await s.call('POST', '/__admin/workspaces', {
    body: { name: 'Answers Co', profile: 'empty', seed: 7 },
  });
  const id = idOf(made);
  const key = textOf(made, 'keys.write.key');
  const asNew = { auth: { header: 'authorization', value: `Bearer ${key}` } };
  await s.call('GET', '/v1/ping', asNew);
  await s.call('GET', '/v1/jobs?limit=2', asNew);
  await s.call('GET', `/__admin/workspaces/${id}`);
  await s.call('PATCH', `/__admin/workspaces/${id}`, { body: { subscription_active: false } });
  await s.call('GET', '/v1/ping', asNew);
  await s.call('PATCH', `/__admin/workspaces/${id}`, { body: { subscription_active: true } });
  const extra = await s.call('POST', `/__admin/workspaces/${id}/keys`, {
    body: { name: 'CI', access: 'read' },
  });
  await s.call('POST', `/__admin/workspaces/${id}/keys`, { body: { access: 'admin' } });
  const asExtra = { auth: { header: 'x-api-key', value: textOf(extra, 'key') } };
  await s.call('GET', '/v1/ping', asExtra);
  await s.call('DELETE', `/__admin/keys/${idOf(extra)}`);
  await s.call('GET', '/v1/ping', asExtra);
  await s.call('GET', `/__admin/workspaces/${id}/clock`);
  await s.call('GET', `/__admin/workspaces/${id}/snapshot`, { digest: true });
  await s.call('DELETE', `/__admin/workspaces/${id}`);
  await s.call('GET', `/__admin/workspaces/${id}`);
  await s.call('GET', '/v1/ping', asNew);
  await s.call('GET', `/__admin/workspaces/${workspace}`);
  await s.call('GET', `/__admin/workspaces/${NO_SUCH_ID}`);
}

async function faults(s: Session): Promise<void> {
  await s.call('POST', '/__admin/faults', { body: { match: {}, action: { status: 42 } } });
  const fault = await s.call('POST', '/__admin/faults', {
    body: { match: { method: 'GET', path: '/v1/users' }, action: { status: 503 }, times: 1 },
  });
  await s.call('GET', '/__admin/faults');
  await s.call('GET', `/__admin/faults/${idOf(fault)}`);
  await s.call('GET', '/v1/users');
  await s.call('GET', '/v1/users');
  await s.call('DELETE', `/__admin/faults/${idOf(fault)}`);
  await s.call('DELETE', '/__admin/faults');
}

async function adminReads(s: Session, workspace: string, hook: string): Promise<void> {
  await s.call('GET', '/__admin/clock');
  await s.call('GET', `/__admin/workspaces/${workspace}/clock`);
  await s.call('GET', '/__admin/workspaces');
  await s.call('GET', '/__admin/webhooks');
  await s.call('GET', `/__admin/webhooks?workspace_id=${workspace}`);
  await s.call('GET', `/__admin/webhooks/${hook}/deliveries`);
  await s.call('GET', `/__admin/webhooks/${NO_SUCH_ID}/deliveries`);
  await s.call('GET', '/__admin/notifications');
  await s.call('GET', '/__admin/requests?limit=5');
  await s.call('GET', '/__admin/requests?status=404&limit=5');
  await s.call('GET', `/__admin/requests?workspace_id=${workspace}&path=/v1/contacts&limit=5`);
  await s.call('GET', '/__admin/requests?status=abc');
  await s.call('GET', `/__admin/workspaces/${workspace}/bundle`, { digest: true });
  await s.call('GET', '/__admin/snapshot', { digest: true });
  await s.call('GET', '/__admin/openapi.json');
  await s.call('GET', '/v1/openapi.json', { auth: 'none' });
  await s.call('GET', '/__health');
}

async function webPages(s: Session, pages: Record<string, Json>, workspace: string): Promise<void> {
  await s.call('GET', '/');
  const records: Array<[string, string]> = [
    ['/v1/jobs', 'jobs'],
    ['/v1/contacts', 'contacts'],
    ['/v1/tasks', 'tasks'],
    ['/v1/estimates', 'estimates'],
    ['/v1/invoices', 'invoices'],
    ['/v1/payments', 'payments'],
    ['/v1/files', 'files'],
    ['/v1/pins', 'pins'],
    ['/v1/storm_lists', 'storm_lists'],
  ];
  for (const [list, page] of records) {
    await s.call('GET', `/${page}/${idOf(pages[list], 'data.0.id')}`);
  }
  await s.call('GET', `/jobs/${NO_SUCH_ID}`);
  await s.call('GET', `/workspaces/${workspace}`);
  await s.call('GET', `/map?pin=${idOf(pages['/v1/pins'], 'data.0.id')}`);
  await s.call('GET', local(textOf(pages['/v1/jobs'], 'data.0.portal_url')));
  await s.call('GET', local(textOf(pages['/v1/estimates'], 'data.0.pdf_url')));
  const file = await s.call('GET', `/v1/files/${idOf(pages['/v1/files'], 'data.0.id')}`);
  await s.call('GET', local(textOf(file, 'download_url')));
  for (const path of [
    '/inspector',
    `/inspector/workspaces/${workspace}`,
    '/inspector/requests',
    '/inspector/requests/rq_0000000001',
    '/inspector/webhooks',
    '/inspector/faults',
    '/inspector/clock',
    '/docs',
    '/docs/errors',
    '/docs/signatures',
  ]) {
    await s.call('GET', path);
  }
}

async function estimatePages(s: Session, pages: Record<string, Json>): Promise<void> {
  const estimates = await s.call('GET', '/v1/estimates?status=sent&limit=1');
  const view = textOf(estimates, 'data.0.view_url');
  if (view) {
    await s.call('GET', new URL(view).pathname);
  }
  const invoices = await s.call('GET', '/v1/invoices?status=sent&limit=1');
  const pay = textOf(invoices, 'data.0.payment_url');
  if (pay) {
    await s.call('GET', new URL(pay).pathname);
  }
  await s.call('GET', local(textOf(pages['/v1/invoices'], 'data.0.pdf_url')));
}

function local(url: string): string {
  if (!url) {
    return '/';
  }
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

async function scenario(s: Session, workspace: string, receiver: string): Promise<void> {
  const pages = await families(s);
  await subLists(s, pages);
  await lookups(s, pages);
  await authErrors(s, pages);
  const { contact, job } = await contactsAndJobs(s);
  await tasksAndNotes(s, job, contact);
  await money(s, job, contact);
  await pinsAndFiles(s, job);
  const hook = await webhooks(s, receiver);
  await deletions(s, job, contact);
  await oauth(s, workspace);
  await adminWorkspaces(s, workspace);
  await faults(s);
  await estimatePages(s, pages);
  await webPages(s, pages, workspace);
  await adminReads(s, workspace, hook);
}

// ---------------------------------------------------------------------------------------------
// Normalising: what differs between two runs of one build.

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Generated tokens: keys, secrets, codes, signatures, cursors (base64url runs of 16+ with a digit
 * and a letter), and the short key prefixes svc shows (`svc_live_3Ivd`). */
const TOKEN = /(?:svc_[a-z]+_|whsec_)[A-Za-z0-9]{4,}|[A-Za-z0-9_-]{16,}/g;
const isToken = (run: string): boolean =>
  /^(?:svc_[a-z]+_|whsec_)/.test(run) ||
  (/[0-9]/.test(run) && /[A-Za-z]/.test(run)) ||
  (/[a-z]/.test(run) && /[A-Z]/.test(run));
const REQUEST_ID = /\breq_[0-9a-f]{16,}\b/g;
const TIMESTAMP = /\b(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d{1,6})?)?Z/g;
const EPOCH = /\b\d{10}(?:\d{3})?\b/g;
const NONCE = /nonce="[^"]*"/g;
/** A duration as the inspector shows it (`<td>0.3 ms</td>`). */
const SHOWN_MS = />\d+(?:\.\d+)? ms</g;
const DAY = 86_400_000;

/** A time svc made during the run (T0 + n minutes + some ms): its minute, marked with `~`. */
function minuteOf(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}~`;
}

class Normaliser {
  readonly #known: Set<string>;
  readonly #seen = new Map<string, string>();
  readonly #origins: Array<[string, string]>;
  readonly #counts = { id: 0, tok: 0 };
  readonly #realFrom = Date.now() - DAY;
  readonly #realTo = Date.now() + DAY;

  /** `known`: values in the seeded data file, the same every run, left as they are. */
  constructor(known: Set<string>, origins: Array<[string, string]>) {
    this.#known = known;
    this.#origins = origins;
  }

  #placeholder(kind: 'id' | 'tok', value: string): string {
    if (this.#known.has(value)) {
      return value;
    }
    let name = this.#seen.get(value);
    if (!name) {
      this.#counts[kind] += 1;
      name = `<${kind}:${this.#counts[kind]}>`;
      this.#seen.set(value, name);
    }
    return name;
  }

  /** Epoch seconds or milliseconds: of the virtual clock (floored), or real time (signatures). */
  #epoch(digits: string): string {
    const ms = digits.length === 13 ? Number(digits) : Number(digits) * 1000;
    if (ms >= this.#realFrom && ms <= this.#realTo) {
      return '<real-time>'; // DESIGN, Clock: a signature's `t` is real time
    }
    if (ms >= T0 && ms < T0 + DAY && ms % MINUTE !== 0) {
      return minuteOf(ms);
    }
    return digits;
  }

  text(input: string): string {
    let out = tiesInText(input);
    for (const [origin, name] of this.#origins) {
      out = out.split(origin).join(name);
    }
    out = out.replace(REQUEST_ID, '<request-id>').replace(NONCE, 'nonce="<nonce>"');
    out = out.replace(SHOWN_MS, '><ms> ms<');
    // Times svc made during the run are some whole minutes from a clock reading that fell some
    // milliseconds after a whole minute: floored to the minute, they are the same every run.
    out = out.replace(TIMESTAMP, (stamp) => {
      const ms = Date.parse(stamp);
      if (this.#known.has(stamp)) {
        return stamp;
      }
      return ms >= this.#realFrom && ms <= this.#realTo ? '<real-time>' : minuteOf(ms);
    });
    out = out.replace(UUID, (id) => this.#placeholder('id', id.toLowerCase()));
    out = out.replace(TOKEN, (run) => (isToken(run) ? this.#placeholder('tok', run) : run));
    return out.replace(EPOCH, (digits) => this.#epoch(digits));
  }

  value(input: Json, key = '', parent: JsonObject = {}): Json {
    if (typeof input === 'string') {
      return key === 'sha256' ? input : this.text(input); // readBody's hash of the bytes
    }
    if (typeof input === 'number') {
      if (key === 'duration_ms') {
        return '<ms>'; // real time a request or a delivery took
      }
      if (key === 'offset_ms' || key === 'clock_offset_ms') {
        return '<offset>'; // virtual minus real time
      }
      if (key === 'seed' && 'action' in parent) {
        return '<seed>'; // a fault's own draw seed, random unless the caller sets it
      }
      return input;
    }
    if (Array.isArray(input)) {
      return input.map((item) => this.value(item));
    }
    if (input && typeof input === 'object') {
      const out: JsonObject = {};
      for (const [k, v] of Object.entries(input)) {
        out[this.text(k)] = this.value(v, k, input);
      }
      return out;
    }
    return input;
  }
}

/** A JSON text (a logged request's body) whose ties orderTies moves is written again; else kept. */
function tiesInText(text: string): string {
  if (!text.startsWith('{') && !text.startsWith('[')) {
    return text;
  }
  let parsed: Json;
  try {
    parsed = JSON.parse(text) as Json;
  } catch {
    return text;
  }
  const ordered = JSON.stringify(orderTies(parsed));
  return ordered === JSON.stringify(parsed) ? text : ordered;
}

/** Records svc made in one write share `created_at` and come in the order of their random ids:
 * such ties are put in the order of their contents, ids masked, before numbering the ids. */
function orderTies(value: Json): Json {
  if (Array.isArray(value)) {
    const items = value.map(orderTies);
    const masked = (item: Json): string =>
      JSON.stringify(item).replace(UUID, '').replace(TOKEN, '');
    const createdAt = (item: Json): unknown =>
      item && typeof item === 'object' && !Array.isArray(item) ? item.created_at : undefined;
    return items
      .map((item, index) => ({ item, index }))
      .sort((a, b) => {
        const at = createdAt(a.item);
        if (at === undefined || at !== createdAt(b.item)) {
          return a.index - b.index;
        }
        return masked(a.item) < masked(b.item) ? -1 : masked(a.item) > masked(b.item) ? 1 : 0;
      })
      .map(({ item }) => item);
  }
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = orderTies(v);
    }
    return out;
  }
  return value;
}

/** What `svc seed` wrote and printed: the same every run, so left as it is. */
function knownValues(svc: Svc): Set<string> {
  const known = new Set<string>([NO_SUCH_ID]);
  const { write, read } = svc.workspace.keys;
  for (const text of [svc.seedText, write.key, read.key]) {
    for (const m of text.matchAll(UUID)) {
      known.add(m[0].toLowerCase());
    }
    for (const m of text.matchAll(TOKEN)) {
      known.add(m[0]);
    }
    for (const m of text.matchAll(TIMESTAMP)) {
      known.add(m[0]);
    }
  }
  return known;
}

function normalise(s: Session, svc: Svc, receiver: string): Answer[] {
  const known = knownValues(svc);
  const origins: Array<[string, string]> = [
    [svc.url, 'http://svc.test'],
    [svc.url.replace('127.0.0.1', 'localhost'), 'http://svc.test'],
    [receiver, 'http://receiver.test'],
    [new URL(svc.url).host, 'svc.test'],
  ];
  const main = new Normaliser(known, origins);
  return s.answers.map((answer) => {
    if (!s.digests.has(answer.n)) {
      return main.value(orderTies(answer as unknown as Json)) as unknown as Answer;
    }
    // A digest's placeholders are its own, so its size does not shift the numbering after it.
    const body = new Normaliser(known, origins).value(orderTies(answer.body));
    const text = JSON.stringify(body);
    const top = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    const head = main.value({ ...answer, body: null } as unknown as Json) as unknown as Answer;
    const sha256 = createHash('sha256').update(text).digest('hex');
    return { ...head, body: { digest_of: top, bytes: text.length, sha256 } };
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { svc: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  if (!values.out) {
    usage('--out FILE is required');
  }
  const svcDir = resolve(values.svc ?? repoRoot);
  const receiver = await startReceiver();
  const svc = await startSvc(svcDir);
  try {
    const session = new Session(svc.url, svc.workspace);
    await scenario(session, svc.workspace.id, receiver.url);
    const answers = normalise(session, svc, receiver.url);
    writeFileSync(values.out, `${JSON.stringify(answers, null, 2)}\n`);
    console.log(`${answers.length} answers written to ${values.out}`);
  } finally {
    await stopSvc(svc);
    receiver.server.close();
  }
}

await main();
