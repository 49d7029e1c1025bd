import { Hono } from 'hono';
import type { AppEnv } from '../platform/context';
import type { Runtime } from '../runtime';
import { escapeHtml } from './oauth-page';

// The server root, where `svc listening on http://HOST:PORT` points: where to go from here. It
// names only addresses that answer, and the workspaces with their ids (keys are shown once, by
// `svc seed --json` or the control API, never here).
export function homeRoutes(rt: Pick<Runtime, 'store'>) {
  return new Hono<AppEnv>().get('/', (c) => {
    const origin = new URL(c.req.url).origin;
    const workspaces = [...rt.store.global.values('workspaces')]
      .map((ws) => `<li>${escapeHtml(ws.name)} <code>${escapeHtml(ws.id)}</code></li>`)
      .join('\n');
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>svc: Workspace Operations API v1</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}</style>
</head><body>
<h1>svc: Workspace Operations REST API v1</h1>
<ul>
<li>base URL: <code>${escapeHtml(origin)}/v1</code> (every call needs a key: <code>Authorization: Bearer …</code>)</li>
<li><a href="/v1/openapi.json">the API's OpenAPI document</a></li>
<li><a href="/__admin/openapi.json">the control API's OpenAPI document</a> (<code>/__admin</code>, no key)</li>
<li><a href="/docs/errors">error codes</a></li>
</ul>
<h2>Workspaces</h2>
<ul>
${workspaces || '<li>none yet: <code>POST /__admin/workspaces</code> makes one</li>'}
</ul></body></html>`);
  });
}
