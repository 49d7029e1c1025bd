import zipcodes from 'zipcodes';
import { expectError, ok } from '../support/expect';
import {
  type Client,
  type Harness,
  harness,
  type Json,
  type TestWorkspace,
} from '../support/harness';

export { expectError, ok };

/** A uuid no workspace holds. */
export const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

/** Every knock result the spec lists. */
export const RESULTS = [
  'interested',
  'not_interested',
  'contacted',
  'no_answer',
  'door_hanger',
  'follow_up',
  'appointment_scheduled',
  'dont_knock',
  'renter',
  'no_damage',
  'cash_quote',
  'lost',
] as const;

// One app per test file (vitest gives each file its own module graph), no rate limit.
let shared: Harness | undefined;
export const app = (): Harness => {
  shared ??= harness({ rateLimit: null });
  return shared;
};

/** A new workspace on the file's app: empty (an owner and nothing else) unless told. */
export async function fresh(
  profile: 'empty' | 'small' | 'demo' = 'empty',
): Promise<{ h: Harness; ws: TestWorkspace }> {
  const h = app();
  return { h, ws: await h.workspace({ profile }) };
}

/** A knock at a Dallas address (ZIP 75201) unless the body says otherwise. */
export const DALLAS = { address: '1420 Elm Street', postal_code: '75201' };

/** POST /pins that must answer 201. */
export const newPin = (ws: TestWorkspace, body: Record<string, unknown> = DALLAS): Promise<Json> =>
  ok(ws.api.post('/pins', body), 201);

export const pinOf = (ws: TestWorkspace, id: string): Promise<Json> =>
  ok(ws.api.get(`/pins/${id}`));

export const patchPin = (
  ws: TestWorkspace,
  id: string,
  body: Record<string, unknown>,
): Promise<Json> => ok(ws.api.patch(`/pins/${id}`, body));

/** GET of a /v1 list that must answer 200. */
export const list = (
  client: Client,
  path: string,
  query: Record<string, string | number | boolean> = {},
): Promise<Json> => ok(client.get(path, { query }));

export const idsOf = (body: Json): string[] => body.data.map((r: { id: string }) => r.id);

/** A ZIP's centre and names, from the zipcodes table. */
export function zipCentre(zip: string): {
  latitude: number;
  longitude: number;
  city: string;
  state: string;
} {
  const found = zipcodes.lookup(zip);
  if (!found) {
    throw new Error(`no ZIP ${zip} in the table`);
  }
  return found;
}

/** Miles between two points (haversine on a sphere of the Earth's mean radius). */
export function miles(a: { latitude: number; longitude: number }, b: typeof a): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.sqrt(h));
}

/** The workspace's team (GET /users). */
export const usersOf = async (ws: TestWorkspace): Promise<Json[]> =>
  (await ok(ws.api.get('/users'))).data;

/** The clock's now, ms. */
export async function nowMs(h: Harness): Promise<number> {
  return Date.parse((await ok(h.admin.get('/clock'))).now);
}

/** Moves the virtual clock forward; answers the new now (ms). */
export async function advance(h: Harness, seconds: number): Promise<number> {
  return Date.parse((await ok(h.admin.post('/clock', { advance_seconds: seconds }))).now);
}
