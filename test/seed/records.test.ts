import { describe, expect, test } from 'vitest';
import zipcodes from 'zipcodes';
import { SEED_ANCHOR_MS } from '../../src/seed';
import { type Client, harness } from '../support/harness';
import { walkPages } from '../support/pages';
import { generated } from './generated';

const all = async (client: Client, path: string, query: Record<string, string> = {}) =>
  (await walkPages(client, path, { ...query, limit: 200 })).data;

describe('seeded records', () => {
  test('a demo workspace read back through the API: every record fits the document', async () => {
    const h = harness({ rateLimit: null });
    const ws = await h.workspace({ profile: 'demo', seed: 11 });
    // the harness checks every page against /v1/openapi.json with prism-http
    const jobs = await all(ws.api, '/jobs', { archived: 'any' });
    const contacts = await all(ws.api, '/contacts');
    const tasks = await all(ws.api, '/tasks');
    const notes = await all(ws.api, '/notes');
    expect(jobs.length).toBeGreaterThan(40);
    expect(contacts.length).toBeGreaterThan(jobs.length);
    expect(tasks.some((t) => t.is_appointment)).toBe(true);
    expect(tasks.some((t) => !t.is_appointment)).toBe(true);
    expect(notes.length).toBeGreaterThan(jobs.length);
  });

  test('jobs spread over the stages of both pipelines, with both job types', async () => {
    const gen = await generated({ profile: 'demo', seed: 4, anchorMs: SEED_ANCHOR_MS });
    const stageOf = new Map(gen.stages.map((s) => [s.id, s]));
    const pipelines = new Set(gen.jobs.map((j) => stageOf.get(j.stage_id)?.pipeline_id));
    expect(pipelines.size).toBe(2);
    const covered = new Set(gen.jobs.map((j) => j.stage_id));
    expect(covered.size).toBeGreaterThanOrEqual(14);
    expect(new Set(gen.jobs.map((j) => j.job_type))).toEqual(new Set(['insurance', 'retail']));
    for (const job of gen.jobs) {
      const stage = stageOf.get(job.stage_id);
      const pipeline = gen.pipelines.find((p) => p.id === stage?.pipeline_id);
      expect(pipeline?.is_default, `${job.job_type} job on ${pipeline?.name}`).toBe(
        job.job_type === 'insurance',
      );
      expect(job.completed_at !== null).toBe(stage?.is_completed);
      expect(job.lost_at !== null).toBe(stage?.is_lost);
    }
  });

  test('addresses agree with their ZIP; homeowners live at the job; adjusters work for its carrier', async () => {
    const gen = await generated({ profile: 'demo', seed: 5, anchorMs: SEED_ANCHOR_MS });
    const contacts = new Map(gen.contacts.map((c) => [c.id, c]));
    for (const job of gen.jobs) {
      expect(zipcodes.lookup(job.postal_code ?? '')).toMatchObject({
        city: job.city,
        state: job.state,
      });
      const homeowner = contacts.get(job.homeowner_id ?? '');
      expect(homeowner?.address).toBe(job.address);
      expect(homeowner?.postal_code).toBe(job.postal_code);
      if (job.adjuster_id) {
        const adjuster = contacts.get(job.adjuster_id);
        expect(adjuster?.type).toBe('adjuster');
        expect(adjuster?.company).toBe(job.insurance_company);
      }
      if (job.job_type === 'insurance' && job.claim_number) {
        expect(job.insurance_company).not.toBeNull();
      }
    }
  });

  test('job numbers follow creation order; tasks and notes hang off real jobs', async () => {
    const gen = await generated({ profile: 'demo', seed: 6, anchorMs: SEED_ANCHOR_MS });
    const byNumber = [...gen.jobs].sort(
      (a, b) => Number(a.job_number.slice(2)) - Number(b.job_number.slice(2)),
    );
    expect(byNumber.map((j) => j.created_at)).toEqual(
      [...byNumber.map((j) => j.created_at)].sort(),
    );
    expect(gen.counters.find((c) => c.id === 'job_number')).toEqual({
      id: 'job_number',
      value: 1000 + gen.jobs.length,
    });
    const jobs = new Set(gen.jobs.map((j) => j.id));
    expect(gen.tasks.every((t) => t.job_id !== null && jobs.has(t.job_id))).toBe(true);
    expect(gen.notes.every((n) => jobs.has(n.job_id))).toBe(true);
    for (const task of gen.tasks) {
      expect(task.due_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(task.completed_at !== null).toBe(task.completed);
    }
  });

  const PROFILE_SEEDS = (['small', 'demo'] as const).flatMap((profile) =>
    [1, 2, 3, 4, 5].map((seed) => [profile, seed] as const),
  );

  test.each(PROFILE_SEEDS)(
    '%s, seed %i: every completed task has created_at <= completed_at <= updated_at',
    async (profile, seed) => {
      const gen = await generated({ profile, seed, anchorMs: SEED_ANCHOR_MS });
      for (const task of gen.tasks.filter((t) => t.completed)) {
        const when = `${task.created_at} <= ${task.completed_at} <= ${task.updated_at}`;
        expect(task.completed_at !== null && task.created_at <= task.completed_at, when).toBe(true);
        expect(task.completed_at !== null && task.completed_at <= task.updated_at, when).toBe(true);
      }
      for (const task of gen.tasks) {
        expect(task.created_at <= task.updated_at).toBe(true);
      }
    },
  );

  test.each(PROFILE_SEEDS)(
    '%s, seed %i: jobs on both boards, with tasks, appointments and notes',
    async (profile, seed) => {
      const gen = await generated({ profile, seed, anchorMs: SEED_ANCHOR_MS });
      const stageOf = new Map(gen.stages.map((s) => [s.id, s]));
      const boards = new Set(gen.jobs.map((j) => stageOf.get(j.stage_id)?.pipeline_id));
      expect(boards).toEqual(new Set(gen.pipelines.map((p) => p.id)));
      expect(new Set(gen.jobs.map((j) => j.job_type))).toEqual(new Set(['insurance', 'retail']));
      expect(gen.tasks.some((t) => t.appointment_type === null)).toBe(true);
      const appointments = gen.tasks.filter((t) => t.appointment_type !== null);
      expect(appointments.length).toBeGreaterThan(0);
      expect(gen.notes.length).toBeGreaterThan(0);
    },
  );

  test('the empty profile has no records; large has 10,000 jobs', async () => {
    const empty = await generated({ profile: 'empty', seed: 1, anchorMs: SEED_ANCHOR_MS });
    expect([empty.jobs, empty.contacts, empty.tasks, empty.notes].map((l) => l.length)).toEqual([
      0, 0, 0, 0,
    ]);
    const large = await generated({ profile: 'large', seed: 1, anchorMs: SEED_ANCHOR_MS });
    expect(large.jobs).toHaveLength(10_000);
  });
});
