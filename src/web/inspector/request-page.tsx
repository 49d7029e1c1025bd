import type { Handler } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { appUrlFor } from '../../platform/app-env';
import type { LoggedRequest } from '../../platform/request-log';
import type { Runtime } from '../../platform/runtime';
import { notFoundPage } from '../ui/not-found';
import { curlOf } from './curl';
import type { Inspector } from './forms';
import { InspectorPage, StatusBadge } from './parts';
import { type Row, rowOf } from './request-rows';

// GET /inspector/requests/{id}: one logged call as the log keeps it (its headers and bodies,
// never its key), with the curl that makes it again.

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

export const requestPage =
  (ins: Inspector): Handler<AppEnv, '/inspector/requests/:id'> =>
  async (c) => {
    const { rt } = ins;
    const entry = await entryById(rt, c.req.param('id'));
    const scope = c.get('adminScope');
    // A control-token sign-in sees its own workspace's calls alone: another's is not there.
    if (!entry || (scope !== undefined && entry.workspace_id !== scope)) {
      return notFoundPage(c, 'request in the log');
    }
    const row = rowOf(rt, entry.id, entry);
    return c.html(
      <InspectorPage
        scope={c.get('adminScope')}
        title={`${entry.method} ${entry.path}`}
        section="requests"
      >
        <h1 class="mono">
          {entry.method} {row.target}
        </h1>
        <RequestFacts entry={entry} row={row} />
        <HeadersKept entry={entry} />
        <Bodies entry={entry} />
        <CopyAsCurl entry={entry} appUrl={appUrlFor(rt.config, c.req.url)} />
        <p>
          <a href="/inspector/requests">All requests</a>
        </p>
      </InspectorPage>,
    );
  };

function RequestFacts({ entry, row }: { entry: LoggedRequest; row: Row }) {
  return (
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
      {entry.node === undefined ? null : (
        <>
          <dt>Node</dt>
          <dd class="mono">{entry.node}</dd>
        </>
      )}
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
  );
}

function HeadersKept({ entry }: { entry: LoggedRequest }) {
  const headers = Object.entries(entry.request_headers);
  return (
    <>
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
    </>
  );
}

function Bodies({ entry }: { entry: LoggedRequest }) {
  return (
    <>
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
    </>
  );
}

function CopyAsCurl({ entry, appUrl }: { entry: LoggedRequest; appUrl: string }) {
  const curl = curlOf(entry, appUrl);
  return (
    <>
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
    </>
  );
}
