import { describe, expect, test } from 'vitest';
import zipcodes from 'zipcodes';
import { SEED_ANCHOR_MS, seededKeys } from '../../src/seed';
import { generated } from './generated';

describe('the seeder', () => {
  test('the same seed and profile give the same records, another seed others', async () => {
    const a = await generated({ profile: 'demo', seed: 5, anchorMs: SEED_ANCHOR_MS });
    const b = await generated({ profile: 'demo', seed: 5, anchorMs: SEED_ANCHOR_MS });
    const c = await generated({ profile: 'demo', seed: 6, anchorMs: SEED_ANCHOR_MS });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
  });

  test("a workspace's market has a city, state, ZIP and coordinates that agree", async () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const { workspace } = await generated({ profile: 'empty', seed, anchorMs: SEED_ANCHOR_MS });
      const place = zipcodes.lookup(workspace.market.postal_code);
      expect(place).toMatchObject({
        city: workspace.market.city,
        state: workspace.market.state,
        latitude: workspace.market.latitude,
        longitude: workspace.market.longitude,
      });
    }
  });

  test('names sound like a storm-restoration contractor and every timestamp is before the anchor', async () => {
    const gen = await generated({ profile: 'large', seed: 9, anchorMs: SEED_ANCHOR_MS });
    expect(gen.workspace.name).toMatch(/Roof|Exteriors|Restoration|Construction|Siding/);
    const stamps = JSON.stringify(gen).match(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g) ?? [];
    expect(stamps.length).toBeGreaterThan(10);
    expect(stamps.every((t) => Date.parse(t) <= SEED_ANCHOR_MS)).toBe(true);
    for (const user of gen.users) {
      expect(user.email).toMatch(/^[a-z0-9.-]+@[a-z0-9]+\.example\.com$/);
    }
  });

  test('seeded keys depend only on seed, profile and slot', () => {
    expect(seededKeys(1, 'demo', 0)).toEqual(seededKeys(1, 'demo', 0));
    expect(seededKeys(1, 'demo', 0).write.key).not.toBe(seededKeys(2, 'demo', 0).write.key);
    expect(seededKeys(1, 'demo', 0).write.key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(seededKeys(1, 'demo', 0).read.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
