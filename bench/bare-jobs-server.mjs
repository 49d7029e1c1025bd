// The floor for bench/jobs-http.ts: a bare Hono route answering the stored job records of a data
// file as they are, with no credential, rate limit, log, validation or presentation.
// Usage: node bench/bare-jobs-server.mjs DATA_FILE WORKSPACE_ID
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const [file, workspaceId] = process.argv.slice(2);
const data = JSON.parse(readFileSync(file, 'utf8'));
const jobs = Object.values(data.workspaces[workspaceId].jobs);
const byId = new Map(jobs.map((job) => [job.id, job]));
const newest = [...jobs].sort((a, b) => (a.created_at < b.created_at ? 1 : -1));

const app = new Hono()
  .get('/v1/jobs/:id', (c) => {
    const job = byId.get(c.req.param('id'));
    return job ? c.json(job) : c.json({ error: 'not found' }, 404);
  })
  .get('/v1/jobs', (c) =>
    c.json({ object: 'list', data: newest.slice(0, 50), has_more: true, next_cursor: null }),
  );

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`bare listening on http://127.0.0.1:${info.port}`);
});
