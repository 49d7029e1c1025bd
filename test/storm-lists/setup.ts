import { geography } from '../../src/resources/common/geo';
import { historyAt, swathsNear } from '../../src/resources/hail/model';
import { BUILD_SECONDS } from '../../src/resources/storm-lists/service';
import { expectError, ok } from '../support/expect';
import { type Harness, harness, type Json, type TestWorkspace } from '../support/harness';

export { BUILD_SECONDS, expectError, ok };

/** A uuid no workspace holds. */
export const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

/** Oklahoma City: the middle of the hail belt, where the model has storms every spring. */
export const OKC = { latitude: 35.4676, longitude: -97.5164 };

let shared: Harness | undefined;
/** The file's app, no rate limit (hail history's 20 a minute included). */
export const app = (): Harness => {
  shared ??= harness({ rateLimit: null });
  return shared;
};

export async function fresh(h: Harness = app()): Promise<{ h: Harness; ws: TestWorkspace }> {
  return { h, ws: await h.workspace() };
}

const DAY_MS = 86_400_000;
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const plusDays = (date: string, n: number) =>
  dayOf(Date.parse(`${date}T00:00:00.000Z`) + n * DAY_MS);

export async function nowMs(h: Harness): Promise<number> {
  return Date.parse((await ok(h.admin.get('/clock'))).now);
}

export async function advance(h: Harness, seconds: number): Promise<void> {
  await ok(h.admin.post('/clock', { advance_seconds: seconds }));
}

/** A storm of the past year: its day, and a point on its swath's centre line. */
export interface Storm {
  date: string;
  peak: number;
  at: { latitude: number; longitude: number };
}

/**
 * A storm of the past year (before `todayMs`) near `around`: of the swaths of at least
 * `minPeak` inches and 6 miles wide, the spot in the middle of a centre line, where hail history
 * reports hail of 1.5 inches or more, with the most ZIPs within 3 miles (the most houses to
 * build lists of). Kept per day: the same day gives the same storm.
 */
export async function stormOf(todayMs: number, around = OKC, minPeak = 1.75): Promise<Storm> {
  const to = dayOf(todayMs - 2 * DAY_MS);
  const kept = storms.get(to);
  if (kept) {
    return kept;
  }
  const geo = await geography();
  const from = plusDays(to, -360);
  let best: (Storm & { zips: number }) | undefined;
  for (const swath of swathsNear(around.latitude, around.longitude, 40, from, to)) {
    if (swath.peak_size_in < minPeak || swath.width_mi < 6) {
      continue;
    }
    // The middle of the track, where its hail is at full strength (it eases off toward the ends).
    for (const at of middleOf(swath.path)) {
      // Hail history there must know of it (a storm no radar saw and no one reported is unknown).
      const known = historyAt(at.latitude, at.longitude, swath.date, swath.date).hail_events;
      if (!known.some((e) => e.size_in >= 1.5)) {
        continue;
      }
      const zips = geo.within(at.latitude, at.longitude, RADIUS_MI).length;
      if (best === undefined || zips > best.zips) {
        best = { date: swath.date, peak: swath.peak_size_in, at, zips };
      }
    }
  }
  if (best === undefined || best.zips === 0) {
    throw new Error('the hail model has no storm over houses near the test area in the past year');
  }
  const { zips: _z, ...storm } = best;
  storms.set(to, storm);
  return storm;
}

const storms = new Map<string, Storm>();

/** Points of a centre line from 30% to 70% of its length. */
function middleOf(path: readonly [number, number][]): { latitude: number; longitude: number }[] {
  const legs = path.slice(1).map((b, k) => {
    const a = path[k] as [number, number];
    return { a, b, len: Math.hypot(b[0] - a[0], b[1] - a[1]) };
  });
  const total = legs.reduce((sum, l) => sum + l.len, 0);
  const out: { latitude: number; longitude: number }[] = [];
  for (let share = 0.3; share <= 0.7; share += 0.05) {
    let left = share * total;
    for (const { a, b, len } of legs) {
      if (left <= len) {
        const f = len === 0 ? 0 : left / len;
        out.push({ latitude: a[0] + f * (b[0] - a[0]), longitude: a[1] + f * (b[1] - a[1]) });
        break;
      }
      left -= len;
    }
  }
  return out;
}

/** The radius of the test lists: a neighbourhood, some hundreds of properties. */
export const RADIUS_MI = 3;

/** A build body over the test storm (a day, a small circle on its swath), changed as the test says. */
export async function stormBody(
  h: Harness,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const { date, at } = await stormOf(await nowMs(h));
  return {
    name: 'Hail on the north side',
    window_from: date,
    window_to: date,
    min_size_in: 1,
    property_cap: 10_000,
    area: { ...at, radius_mi: RADIUS_MI },
    ...extra,
  };
}

/** POST /__admin/workspaces/{id}/storm_lists that must answer 201: the list, building. */
export const build = (
  h: Harness,
  ws: TestWorkspace,
  body: Record<string, unknown>,
): Promise<Json> => ok(h.admin.post(`/workspaces/${ws.id}/storm_lists`, body), 201);

/** A list built and finished on the clock; answers it as GET /storm_lists/{id} then shows it. */
export async function built(
  h: Harness,
  ws: TestWorkspace,
  body: Record<string, unknown>,
): Promise<Json> {
  const list = await build(h, ws, body);
  await advance(h, BUILD_SECONDS);
  return ok(ws.api.get(`/storm_lists/${list.id}`));
}

/** Every property of a list, page by page (200 a page). */
export async function allProperties(
  ws: TestWorkspace,
  id: string,
  query: Record<string, string> = {},
): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | null = null;
  do {
    const q: Record<string, string> = { ...query, limit: '200', ...(cursor ? { cursor } : {}) };
    const page: Json = await ok(ws.api.get(`/storm_lists/${id}/properties`, { query: q }));
    out.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return out;
}
