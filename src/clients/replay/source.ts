import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { isBundleFile, readBundle } from '../../bundle/file';
import { controlRefusal, withControlAuth } from '../control-token';
import { parseEntry, type SourceEntry } from './entry';
import { send } from './http';

// Where a replay's requests come from: a running svc's request log (its JSON-lines export), or
// a file of the same lines.

export interface Selection {
  /** A recorded workspace_id. */
  workspace?: string | undefined;
  /** A path prefix, with or without /v1, as the request log's own filter reads it. */
  path?: string | undefined;
  /** At or after, in ms. */
  sinceMs?: number | undefined;
  /** Before, in ms. */
  untilMs?: number | undefined;
}

/** The source cannot be read: a file that is not there or holds a line that is no entry (exit 2). */
export class SourceError extends Error {}

/** The source svc did not answer (exit 1, as a target that cannot be reached). */
export class SourceUnreachable extends Error {}

export const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** The selected entries, oldest first (by `at`; entries of the same instant in source order). */
export async function readSource(source: string, selection: Selection): Promise<SourceEntry[]> {
  const entries = isUrl(source)
    ? await fromServer(source, selection)
    : (await isBundleFile(source))
      ? await fromBundle(source)
      : await fromLines(openFile(source), source);
  const chosen = entries.filter((entry) => selected(entry, selection));
  const at = new Map(chosen.map((e) => [e, Date.parse(e.at)]));
  // A stable sort: a file someone turned newest first (the list's order) still replays in order.
  return chosen.sort((a, b) => (at.get(a) ?? 0) - (at.get(b) ?? 0));
}

function openFile(file: string): Readable {
  return createReadStream(file, { encoding: 'utf8' });
}

async function fromLines(input: Readable, name: string): Promise<SourceEntry[]> {
  const out: SourceEntry[] = [];
  let n = 0;
  try {
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      n += 1;
      if (line.trim() === '') {
        continue;
      }
      const entry = parseEntry(line);
      if (typeof entry === 'string') {
        throw new SourceError(`${name} line ${n}: ${entry}`);
      }
      out.push(entry);
    }
  } catch (err) {
    if (err instanceof SourceError) {
      throw err;
    }
    throw new SourceError(`cannot read ${name}: ${(err as Error).message}`);
  }
  return out;
}

/** A support bundle's request log (svc bundle): the same entries, kept in one JSON file. */
async function fromBundle(file: string): Promise<SourceEntry[]> {
  let bundle: Awaited<ReturnType<typeof readBundle>>;
  try {
    bundle = await readBundle(file);
  } catch (err) {
    throw new SourceError((err as Error).message);
  }
  return bundle.requests.map((request, i) => {
    const entry = parseEntry(JSON.stringify(request));
    if (typeof entry === 'string') {
      throw new SourceError(`${file} requests.${i}: ${entry}`);
    }
    return entry;
  });
}

/** The export of a svc (given as its address, its /v1 or its /__admin), filtered there too. */
async function fromServer(source: string, selection: Selection): Promise<SourceEntry[]> {
  const base = source.replace(/\/+$/, '').replace(/\/(v1|__admin)$/, '');
  const query = new URLSearchParams({ format: 'jsonl' });
  if (selection.workspace !== undefined) {
    query.set('workspace_id', selection.workspace);
  }
  if (selection.path !== undefined) {
    query.set('path', selection.path);
  }
  if (selection.sinceMs !== undefined) {
    query.set('since', new Date(selection.sinceMs).toISOString());
  }
  if (selection.untilMs !== undefined) {
    query.set('until', new Date(selection.untilMs).toISOString());
  }
  const url = `${base}/__admin/requests?${query}`;
  const reply = await send({ method: 'GET', url, headers: withControlAuth(url), body: null });
  if ('error' in reply) {
    throw new SourceUnreachable(`cannot read the request log at ${url}: ${reply.error}`);
  }
  if (reply.status === 401 || reply.status === 403) {
    // a credential missing or not this svc's: the command line is wrong, not the server (exit 2)
    throw new SourceError(`${url} answered ${reply.status}: ${controlRefusal(reply.status, base)}`);
  }
  if (reply.status !== 200) {
    throw new SourceUnreachable(
      `${url} answered ${reply.status}: ${controlRefusal(reply.status, base)}`,
    );
  }
  return fromLines(Readable.from([reply.body]), url);
}

function selected(entry: SourceEntry, s: Selection): boolean {
  if (s.workspace !== undefined && entry.workspace_id !== s.workspace) {
    return false;
  }
  if (s.path !== undefined && !pathMatches(entry.path, s.path)) {
    return false;
  }
  const at = Date.parse(entry.at);
  return (
    (s.sinceMs === undefined || at >= s.sinceMs) && (s.untilMs === undefined || at < s.untilMs)
  );
}

// As the request log's own filter (decisions.md, Request log): `/jobs` is `/v1/jobs` too.
const pathMatches = (path: string, prefix: string): boolean =>
  path.startsWith(prefix) || (!prefix.startsWith('/v1') && path.startsWith(`/v1${prefix}`));
