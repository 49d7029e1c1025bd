// The floor for the HTTP benchmarks: a bare Hono route answering the stored records of one
// collection of a data file as they are, with no credential, rate limit, log, validation or
// presentation; and a POST that parses the body and keeps it in memory, answering it with an id
// (nothing durable). Usage: node bench/bare-records-server.mjs DATA_FILE WORKSPACE_ID [COLLECTION]
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const [file, workspaceId, coll = 'jobs'] = process.argv.slice(2);
const data = JSON.parse(readFileSync(file, 'utf8'));
const records = Object.values(data.workspaces[workspaceId][coll]);
const byId = new Map(records.map((rec) => [rec.id, rec]));
const newest = [...records].sort((a, b) => (a.created_at < b.created_at ? 1 : -1));

const app = new Hono()
  .get(`/v1/${coll}/:id`, (c) => {
    const rec = byId.get(c.req.param('id'));
    return rec ? c.json(rec) : c.json({ error: 'not found' }, 404);
  })
  .get(`/v1/${coll}`, (c) =>
    c.json({ object: 'list', data: newest.slice(0, 50), has_more: true, next_cursor: null }),
  )
  .post(`/v1/${coll}`, async (c) => {
    const rec = { id: randomUUID(), ...(await c.req.json()), created_at: new Date().toISOString() };
    byId.set(rec.id, rec);
    return c.json(rec, 201);
  });

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`bare listening on http://127.0.0.1:${info.port}`);
});
