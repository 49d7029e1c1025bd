// The floor for the HTTP benchmarks: bare Hono routes answering the stored records of one
// workspace of a data file as they are, with no credential, rate limit, log, validation or
// presentation: GET /v1/<collection>/{id}, GET /v1/<collection> (the newest 50, `job_id` filtering
// when sent), GET /v1/storm_lists/{id}/properties; and a POST to COLLECTION that parses the body
// and keeps it in memory, answering it with an id (nothing durable).
// Usage: node bench/bare-records-server.mjs DATA_FILE WORKSPACE_ID [COLLECTION]
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const [file, workspaceId, coll = 'jobs'] = process.argv.slice(2);
const data = JSON.parse(readFileSync(file, 'utf8'));
const workspace = data.workspaces[workspaceId];
const newestFirst = (records) =>
  [...records].sort((a, b) => (a.created_at < b.created_at ? 1 : -1));

// Each collection's records by id and newest first, made once.
const collections = new Map(
  Object.entries(workspace)
    .filter(([, records]) => typeof records === 'object' && records !== null)
    .map(([name, records]) => {
      const list = Object.values(records).filter((r) => typeof r === 'object' && r !== null);
      return [name, { byId: new Map(list.map((r) => [r.id, r])), newest: newestFirst(list) }];
    }),
);
const page = (records) => ({
  object: 'list',
  data: records.slice(0, 50),
  has_more: records.length > 50,
  next_cursor: null,
});

const app = new Hono()
  .get('/v1/storm_lists/:id/properties', (c) => {
    const id = c.req.param('id');
    const all = collections.get('storm_list_properties')?.newest ?? [];
    return c.json(page(all.filter((p) => p.storm_list_id === id)));
  })
  .get('/v1/:coll/:id', (c) => {
    const rec = collections.get(c.req.param('coll'))?.byId.get(c.req.param('id'));
    return rec ? c.json(rec) : c.json({ error: 'not found' }, 404);
  })
  .get('/v1/:coll', (c) => {
    const all = collections.get(c.req.param('coll'))?.newest ?? [];
    const jobId = c.req.query('job_id');
    return c.json(page(jobId === undefined ? all : all.filter((r) => r.job_id === jobId)));
  })
  .post(`/v1/${coll}`, async (c) => {
    const rec = { id: randomUUID(), ...(await c.req.json()), created_at: new Date().toISOString() };
    collections.get(coll)?.byId.set(rec.id, rec);
    return c.json(rec, 201);
  });

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`bare listening on http://127.0.0.1:${info.port}`);
});
