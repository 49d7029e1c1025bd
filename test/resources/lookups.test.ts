import { describe, expect, test } from 'vitest';
import { harness } from '../support/harness';

type Stage = {
  id: string;
  object: string;
  pipeline_id: string;
  key: string;
  label: string;
  order: number;
  is_completed: boolean;
  is_lost: boolean;
};
type Pipeline = { id: string; name: string; is_default: boolean; order: number; stages: Stage[] };

const setup = async (profile = 'small') => {
  const h = harness();
  return { h, ws: await h.workspace({ profile }) };
};

describe('GET /pipelines', () => {
  test('lists pipelines, the default first, each with its stages in board order', async () => {
    const { ws } = await setup();
    const res = await ws.api.get('/pipelines');
    expect(res.status).toBe(200);
    const pipelines: Pipeline[] = res.body.data;
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(pipelines[0]?.is_default).toBe(true);
    expect(pipelines.filter((p) => p.is_default)).toHaveLength(1);
    for (const p of pipelines) {
      expect(p.stages.map((s) => s.order)).toEqual(
        [...p.stages.map((s) => s.order)].sort((a, b) => a - b),
      );
      expect(p.stages.every((s) => s.pipeline_id === p.id && s.object === 'pipeline_stage')).toBe(
        true,
      );
      expect(p.stages.filter((s) => s.is_completed)).toHaveLength(1);
      expect(p.stages.filter((s) => s.is_lost)).toHaveLength(1);
    }
  });
});

describe('GET /stages', () => {
  test('every stage on every board, default pipeline first, in board order', async () => {
    const { ws } = await setup();
    const pipelines: Pipeline[] = (await ws.api.get('/pipelines')).body.data;
    const stages: Stage[] = (await ws.api.get('/stages')).body.data;
    expect(stages.map((s) => s.id)).toEqual(pipelines.flatMap((p) => p.stages.map((s) => s.id)));
    expect(stages[0]).toMatchObject({ object: 'pipeline_stage', key: 'lead', order: 0 });
  });

  test('/pipeline_stages is an alias', async () => {
    const { ws } = await setup();
    const a = await ws.api.get('/stages');
    const b = await ws.api.get('/pipeline_stages');
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
  });

  test('a key names one stage of the workspace', async () => {
    const { ws } = await setup();
    const keys = (await ws.api.get('/stages')).body.data.map((s: Stage) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('GET /users', () => {
  test("lists the workspace's own team, owner first, with exactly the spec's fields", async () => {
    const { h, ws } = await setup('demo');
    const other = await h.workspace({ profile: 'small' });
    const users = (await ws.api.get('/users')).body.data;
    expect(users[0].role).toBe('owner');
    for (const user of users) {
      expect(Object.keys(user).sort()).toEqual(['email', 'id', 'name', 'object', 'role']);
    }
    const theirs = new Set(
      (await other.api.get('/users')).body.data.map((u: { id: string }) => u.id),
    );
    expect(users.some((u: { id: string }) => theirs.has(u.id))).toBe(false);
  });
});

describe('GET /estimate_templates', () => {
  test('most recently changed first, up to limit, not paged', async () => {
    const { ws } = await setup('demo');
    const all = (await ws.api.get('/estimate_templates')).body;
    expect(all.next_cursor).toBeNull();
    const updated = all.data.map((t: { updated_at: string }) => t.updated_at);
    expect(updated).toEqual([...updated].sort().reverse());
    expect(all.data[0]).toMatchObject({ object: 'estimate_template' });
    expect(all.data[0].template_number).toMatch(/^T-\d+$/);
    const one = (await ws.api.get('/estimate_templates', { query: { limit: 1 } })).body;
    expect(one.data).toEqual([all.data[0]]);
  });
});
