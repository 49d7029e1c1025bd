import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { requestFilterFrom } from '../../admin/requests';
import type { AppEnv } from '../../platform/app-env';
import { appUrlFor } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import type { LoggedRequest, RequestFilter } from '../../platform/request-log';
import type { NewEntry } from '../../platform/request-log/log';
import type { Runtime } from '../../runtime';
import { notFoundPage } from '../ui/not-found';
import { curlOf } from './curl';
import type { Inspector } from './forms';
import { InspectorPage, StatusBadge, when } from './parts';

// The request log (spec, Limits: 14 days; /__admin/requests), newest first, with its filters, a
// page a call, and the live stream the page's script prepends rows from.

const PER_PAGE = 50;
/** The filters of /__admin/requests, by the names it takes. */
/** How many calls a reconnecting stream sends that it missed. */
const MISSED_AT_MOST = 200;

const FILTERS = [
  'workspace_id',
  'key_id',
  'method',
  'path',
  'status',
  'fault',
  'since',
  'until',
] as const;
/** A silent connection is cut by some proxies and never noticed gone by the server. */
const HEARTBEAT_MS = 15_000;

/** One row of the log: what the list shows of a call, and what the stream sends the script. */
export interface Row {
  id: string;
  at: string;
  method: string;
  target: string;
  status: number;
  duration_ms: number;
  key_id: string;
  key: string;
  workspace_id: string;
  workspace: string;
  fault: string | null;
}

type Summary = Pick<
  LoggedRequest,
  'at' | 'method' | 'path' | 'query' | 'status' | 'duration_ms' | 'key_id' | 'workspace_id'
> & { fault?: string | undefined };

function rowOf(rt: Runtime, id: string, e: Summary): Row {
  const { global } = rt.store;
  const query = new URLSearchParams(e.query).toString();
  const key = global.get('api_keys', e.key_id);
  const connection = key ? undefined : global.get('oauth_connections', e.key_id);
  const app = connection && global.get('oauth_apps', connection.client_id);
  return {
    id,
    at: e.at,
    method: e.method,
    target: query === '' ? e.path : `${e.path}?${query}`,
    status: e.status,
    duration_ms: e.duration_ms,
    key_id: e.key_id,
    key: key ? `${key.name} (${key.prefix}…)` : app ? `app ${app.name}` : e.key_id,
    workspace_id: e.workspace_id,
    workspace: global.get('workspaces', e.workspace_id)?.name ?? e.workspace_id,
    fault: e.fault ?? null,
  };
}

/** The page's filters, read and refused as /__admin/requests reads and refuses them. */
function filterOf(c: Context<AppEnv>): { filter: RequestFilter; problem?: string } {
  const given: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = c.req.query(name)?.trim();
    if (value) {
      given[name] = value;
    }
  }
  try {
    return { filter: requestFilterFrom(given) };
  } catch (err) {
    if (err instanceof ApiError) {
      return { filter: given as RequestFilter, problem: err.message };
    }
    throw err;
  }
}

const queryOf = (filter: RequestFilter, extra: Record<string, string> = {}) => {
  const q = new URLSearchParams({ ...(filter as Record<string, string>), ...extra }).toString();
  return q === '' ? '' : `?${q}`;
};

function RowView({ row }: { row: Row }) {
  return (
    <tr>
      <td>
        <a href={`/inspector/requests/${row.id}`}>{when(row.at)}</a>
      </td>
      <td class="mono">{row.method}</td>
      <td class="mono">{row.target}</td>
      <td>
        <StatusBadge status={row.status} />
      </td>
      <td class="money">{`${row.duration_ms} ms`}</td>
      <td>
        <a href={`/inspector/requests?key_id=${encodeURIComponent(row.key_id)}`}>{row.key}</a>
      </td>
      <td>
        <a href={`/inspector/requests?workspace_id=${encodeURIComponent(row.workspace_id)}`}>
          {row.workspace}
        </a>
      </td>
      <td class="mono">
        {row.fault ? (
          <a href={`/inspector/requests?fault=${encodeURIComponent(row.fault)}`}>{row.fault}</a>
        ) : null}
      </td>
    </tr>
  );
}

function FilterForm({ filter }: { filter: RequestFilter }) {
  const input = (name: (typeof FILTERS)[number], label: string, hint: string) => (
    <label class="inline">
      {label} <input name={name} value={filter[name] ?? ''} placeholder={hint} size={14} />
    </label>
  );
  return (
    <form method="get" action="/inspector/requests" class="card filters">
      {input('workspace_id', 'Workspace', 'id')} {input('key_id', 'Key', 'id')}{' '}
      {input('method', 'Method', 'GET')} {input('path', 'Path', '/v1/jobs')}{' '}
      {input('status', 'Status', '404, 4xx or 0')} {input('fault', 'Fault', 'flt_…, true')}{' '}
      {input('since', 'Since', '2026-11-25T09:00Z')} {input('until', 'Until', 'ISO date-time')}{' '}
      <button type="submit">Filter</button> <a href="/inspector/requests">Clear</a>
    </form>
  );
}

function pretty(text: string | null): string {
  if (text === null) {
    return '';
  }
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text; // not JSON, or cut at 16 KB: as it was sent
  }
}

/** Entry `id` of the log; undefined when the log holds none (rotated away, or never). */
async function entryById(rt: Runtime, id: string): Promise<LoggedRequest | undefined> {
  const n = /^rq_(\d{10})$/.exec(id)?.[1];
  if (n === undefined) {
    return undefined;
  }
  // The log pages newest first before a cursor: the first entry before the next id is this one
  // (the last id of all has no next: the newest entry is the only one it can be).
  const after = Number(n) + 1;
  const next = after < 1e10 ? `rq_${String(after).padStart(10, '0')}` : undefined;
  const { data } = await rt.requestLog.query({}, 1, next);
  return data[0]?.id === id ? data[0] : undefined;
}

export function requestRoutes(ins: Inspector) {
  const { rt } = ins;
  const web = new Hono<AppEnv>();

  web.get('/inspector/requests', async (c) => {
    const { filter, problem: refused } = filterOf(c);
    const cursor = c.req.query('cursor') || undefined;
    let found: { data: LoggedRequest[]; hasMore: boolean } = { data: [], hasMore: false };
    let problem = refused;
    try {
      if (problem === undefined) {
        found = await rt.requestLog.query(filter, PER_PAGE, cursor);
      }
    } catch (err) {
      if (!(err instanceof ApiError)) {
        throw err;
      }
      problem = err.message;
    }
    const rows = found.data.map((e) => rowOf(rt, e.id, e));
    const last = found.data.at(-1);
    // Live only on the first page: a row from the stream belongs above the newest one.
    const live = cursor === undefined ? `/inspector/requests/stream${queryOf(filter)}` : undefined;
    return c.html(
      <InspectorPage title="Requests" section="requests">
        <h1>
          Requests{' '}
          <span class="badge live" data-live-state hidden>
            live
          </span>
        </h1>
        <p class="muted">
          Every call made with a credential in the last 14 days, newest first. Keys are never
          logged.
        </p>
        <FilterForm filter={filter} />
        {problem ? (
          <div class="notice bad" role="alert">
            {problem}
          </div>
        ) : null}
        <table class="requests">
          <thead>
            <tr>
              <th>Time</th>
              <th>Method</th>
              <th>Path</th>
              <th>Status</th>
              <th>Duration</th>
              <th>Key</th>
              <th>Workspace</th>
              <th>Fault</th>
            </tr>
          </thead>
          <tbody id="request-rows" data-stream={live}>
            {rows.map((row) => (
              <RowView row={row} />
            ))}
          </tbody>
        </table>
        {rows.length === 0 && !problem ? (
          <p class="muted" id="no-requests">
            No call matches yet.
          </p>
        ) : null}
        <p>
          {cursor !== undefined ? (
            <a href={`/inspector/requests${queryOf(filter)}`}>Newest</a>
          ) : null}{' '}
          {found.hasMore && last ? (
            <a href={`/inspector/requests${queryOf(filter, { cursor: last.id })}`}>Older</a>
          ) : null}
        </p>
      </InspectorPage>,
      problem ? 400 : 200,
    );
  });

  web.get('/inspector/requests/stream', async (c) => {
    const { filter, problem } = filterOf(c);
    if (problem !== undefined) {
      return c.text(problem, 400);
    }
    // Ids are settled once the log has read its files: only then is a row's link for good.
    await rt.requestLog.load();
    return streamSSE(c, async (stream) => {
      let writing: Promise<unknown> = stream.write('retry: 2000\n\n');
      const send = (text: string) => {
        writing = writing
          .then(() => stream.write(text))
          .then(
            () => undefined,
            () => undefined,
          );
      };
      const sent = new Set<string>();
      const event = (id: string, entry: Summary) => {
        sent.add(id);
        send(`event: request\nid: ${id}\ndata: ${JSON.stringify(rowOf(rt, id, entry))}\n\n`);
      };
      const stop = rt.requestLog.watch(filter, (id: string, entry: NewEntry) => event(id, entry));
      // A browser reconnecting says the last row it got: the calls made meanwhile come first
      // (at most a page of them; older ones are a reload away).
      const last = c.req.header('Last-Event-ID');
      if (last !== undefined && /^rq_\d{10}$/.test(last)) {
        const { data } = await rt.requestLog.query(filter, MISSED_AT_MOST);
        for (const entry of data.filter((e) => e.id > last && !sent.has(e.id)).reverse()) {
          event(entry.id, entry);
        }
      }
      const beat = setInterval(() => send(': beat\n\n'), HEARTBEAT_MS);
      beat.unref();
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      clearInterval(beat);
      stop();
    });
  });

  web.get('/inspector/requests/:id', async (c) => {
    const id = c.req.param('id');
    const entry = await entryById(rt, id);
    if (!entry) {
      return notFoundPage(c, 'request in the log');
    }
    const row = rowOf(rt, entry.id, entry);
    const curl = curlOf(entry, appUrlFor(rt.config, c.req.url));
    const headers = Object.entries(entry.request_headers);
    return c.html(
      <InspectorPage title={`${entry.method} ${entry.path}`} section="requests">
        <h1 class="mono">
          {entry.method} {row.target}
        </h1>
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <StatusBadge status={entry.status} />
          </dd>
          <dt>At</dt>
          <dd>{entry.at}</dd>
          <dt>Duration</dt>
          <dd>{`${entry.duration_ms} ms`}</dd>
          <dt>Key</dt>
          <dd>
            <a href={`/inspector/requests?key_id=${encodeURIComponent(entry.key_id)}`}>{row.key}</a>{' '}
            <span class="muted">
              {entry.credential_kind} <span class="mono">{entry.key_id}</span>
            </span>
          </dd>
          <dt>Workspace</dt>
          <dd>
            <a href={`/inspector/requests?workspace_id=${encodeURIComponent(entry.workspace_id)}`}>
              {row.workspace}
            </a>
          </dd>
          <dt>Request id</dt>
          <dd class="mono">{entry.request_id}</dd>
          <dt>Fault</dt>
          <dd>
            {entry.fault ? (
              <a class="mono" href={`/inspector/requests?fault=${encodeURIComponent(entry.fault)}`}>
                {entry.fault}
              </a>
            ) : (
              'none'
            )}
          </dd>
        </dl>

        <h2>Request headers kept</h2>
        {headers.length === 0 ? (
          <p class="muted">None (the log keeps Content-Type and Idempotency-Key).</p>
        ) : (
          <dl class="facts">
            {headers.map(([name, value]) => (
              <>
                <dt class="mono">{name}</dt>
                <dd class="mono">{value}</dd>
              </>
            ))}
          </dl>
        )}

        <h2>Request body{entry.request_body_truncated ? ' (first 16 KB)' : ''}</h2>
        {entry.request_body === null ? (
          <p class="muted">None.</p>
        ) : (
          <pre>{pretty(entry.request_body)}</pre>
        )}

        {/* A cut answer is as long as its cap: 16 KB, or 4 KB of a list page (decisions.md). */}
        <h2>
          Response body
          {entry.response_body_truncated && entry.response_body !== null
            ? ` (first ${Math.round(entry.response_body.length / 1024)} KB)`
            : ''}
        </h2>
        {entry.response_body === null ? (
          <p class="muted">None.</p>
        ) : (
          <pre>{pretty(entry.response_body)}</pre>
        )}

        <h2>Copy as curl</h2>
        <p class="muted">
          Set <code>SVC_KEY</code> to a key of this workspace first: keys are never logged.
        </p>
        {curl.caveats.map((text) => (
          <p class="notice">{text}</p>
        ))}
        <pre id="curl">{curl.command}</pre>
        <button type="button" class="copy" data-copy="curl" hidden>
          Copy
        </button>
        <p>
          <a href="/inspector/requests">All requests</a>
        </p>
      </InspectorPage>,
    );
  });

  return web;
}
