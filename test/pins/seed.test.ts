import { describe, expect, test } from 'vitest';
import { generate, SEED_ANCHOR_MS } from '../../src/seed';
import type { Json } from '../support/harness';
import { walkPages } from '../support/pages';
import { fresh, miles, ok, RESULTS, zipCentre } from './setup';

// Seeded pins (issue 16: "the demo profile has pins around the jobs in every knock result");
// decisions.md, Pins: a job that came from a door knock has its own door's pin, which became it;
// the doors beside each job were knocked; pins are placed as POST /pins places an address.

async function seededPins(profile: 'small' | 'demo' | 'large', seed = 3) {
  const { collections: c } = await generate({ profile, seed, anchorMs: SEED_ANCHOR_MS });
  return {
    pins: c.pins ?? [],
    jobs: c.jobs ?? [],
    contacts: c.contacts ?? [],
    users: c.users ?? [],
  };
}

describe('a seeded workspace has pins', () => {
  test.each([
    ['small', ['knock', 'inspection']],
    ['demo', ['knock', 'inspection', 'job']],
  ] as const)('%s: in every knock result, with pin types %j', async (profile, types) => {
    for (const seed of [1, 2, 3, 4]) {
      const { pins } = await seededPins(profile, seed);
      expect(new Set(pins.map((p) => p.knock_result))).toEqual(new Set(RESULTS));
      for (const type of types) {
        expect(
          pins.some((p) => p.pin_type === type),
          `${type}, seed ${seed}`,
        ).toBe(true);
      }
    }
  });

  test('demo: around the jobs, within their ZIPs; a few per job', async () => {
    const { pins, jobs } = await seededPins('demo');
    expect(pins.length).toBeGreaterThan(jobs.length * 2);
    const zips = new Set(jobs.map((j) => j.postal_code));
    for (const pin of pins) {
      expect(zips.has(pin.postal_code)).toBe(true);
      expect(miles(pin, zipCentre(pin.postal_code ?? ''))).toBeLessThanOrEqual(1.5);
      expect(zipCentre(pin.postal_code ?? '')).toMatchObject({ city: pin.city, state: pin.state });
    }
  });

  test('the empty profile has none', async () => {
    const { collections } = await generate({
      profile: 'empty',
      seed: 1,
      anchorMs: SEED_ANCHOR_MS,
    });
    expect(collections.pins ?? []).toEqual([]);
  });

  test('the same seed gives the same pins', async () => {
    const a = await seededPins('demo', 7);
    const b = await seededPins('demo', 7);
    expect(JSON.stringify(a.pins)).toBe(JSON.stringify(b.pins));
  });
});

describe('seeded pins agree with the rest of the workspace', () => {
  test("a job from a door knock has its door's pin: converted, its homeowner, its rep, knocked first", async () => {
    const { pins, jobs, contacts } = await seededPins('demo');
    const people = new Map(contacts.map((c) => [c.id, c]));
    const doorJobs = jobs.filter((j) => j.lead_source === 'Door knock');
    expect(doorJobs.length).toBeGreaterThan(0);
    for (const job of doorJobs) {
      const door = pins.filter((p) => p.job_id === job.id);
      expect(door, job.job_number).toHaveLength(1);
      const [pin] = door;
      const homeowner = people.get(job.homeowner_id ?? '');
      expect(pin).toMatchObject({
        pin_type: 'job',
        address: job.address,
        postal_code: job.postal_code,
        homeowner_first_name: homeowner?.first_name,
        homeowner_last_name: homeowner?.last_name,
        homeowner_name: `${homeowner?.first_name} ${homeowner?.last_name}`,
        created_by_id: job.assigned_to_id,
        updated_at: job.created_at,
      });
      expect(String(pin?.created_at) <= job.created_at).toBe(true);
    }
    // Only those doors became jobs.
    const made = new Set(doorJobs.map((j) => j.id));
    expect(pins.filter((p) => p.job_id !== null).every((p) => made.has(p.job_id ?? ''))).toBe(true);
    expect(pins.filter((p) => p.pin_type === 'job').length).toBe(doorJobs.length);
  });

  test('every pin: logged by a user, in time order, before the anchor, names split as the API splits them', async () => {
    const { pins, users } = await seededPins('demo');
    const team = new Set(users.map((u) => u.id));
    for (const pin of pins) {
      expect(team.has(pin.created_by_id)).toBe(true);
      expect(pin.created_at <= pin.updated_at).toBe(true);
      expect(Date.parse(pin.updated_at)).toBeLessThan(SEED_ANCHOR_MS);
      expect(pin.homeowner_name).toBe(
        [pin.homeowner_first_name, pin.homeowner_last_name].filter((p) => p !== null).join(' ') ||
          null,
      );
      for (const key of ['phone', 'email', 'notes', 'address'] as const) {
        expect(pin[key]).not.toBe('');
      }
    }
  });
});

describe('seeded pins through the API', () => {
  test('every page fits the document; a seeded address posted again lands on its spot', async () => {
    const { ws } = await fresh('demo');
    const pins = (await walkPages(ws.api, '/pins', { limit: 200 })).data;
    expect(pins.length).toBeGreaterThan(100);
    for (const result of RESULTS) {
      const some = await ok(ws.api.get('/pins', { query: { knock_result: result, limit: 1 } }));
      expect(some.data, result).toHaveLength(1);
    }
    const jobs = new Map(
      (await walkPages(ws.api, '/jobs', { archived: 'any', limit: 200 })).data.map((j: Json) => [
        j.id,
        j,
      ]),
    );
    for (const pin of pins.filter((p: Json) => p.pin_type === 'job')) {
      expect(jobs.get(pin.job_id)?.lead_source).toBe('Door knock');
    }
    for (const pin of pins.slice(0, 5)) {
      const again = await ok(
        ws.api.post('/pins', { address: pin.address, postal_code: pin.postal_code }),
        201,
      );
      expect([again.latitude, again.longitude]).toEqual([pin.latitude, pin.longitude]);
    }
  });
});
