import { describe, expect, test } from 'vitest';
import {
  DALLAS,
  expectError,
  fresh,
  miles,
  newPin,
  nowMs,
  ok,
  pinOf,
  UNKNOWN,
  usersOf,
  zipCentre,
} from './setup';

// POST /pins: DESIGN.md (an address or latitude+longitude; created_by a user id, default the
// workspace owner); spec, Pin (its fields, homeowner_name split into first and last);
// decisions.md, Geocoding (an address near its ZIP's centre, the same address on the same spot;
// coordinates take the nearest ZIP's city, state and postal code; outside the US is 400).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('a knock logged at an address', () => {
  test('answers 201 with every field of the Pin, placed within 1.5 miles of its ZIP centre', async () => {
    const { h, ws } = await fresh();
    const [owner] = await usersOf(ws);
    const before = await nowMs(h);
    const res = await ws.api.post('/pins', {
      ...DALLAS,
      knock_result: 'interested',
      homeowner_name: 'Dana Whitfield',
      phone: '214-555-0148',
      email: 'Dana@Example.com',
      notes: 'Hail hits on the gutters',
    });
    expect(res.status, res.text).toBe(201);
    const pin = res.body;
    expect(pin).toEqual({
      id: expect.stringMatching(UUID),
      object: 'pin',
      pin_type: 'knock',
      knock_result: 'interested',
      address: '1420 Elm Street',
      city: 'Dallas',
      state: 'TX',
      postal_code: '75201',
      latitude: expect.any(Number),
      longitude: expect.any(Number),
      homeowner_name: 'Dana Whitfield',
      homeowner_first_name: 'Dana',
      homeowner_last_name: 'Whitfield',
      phone: '(214) 555-0148',
      email: 'dana@example.com',
      notes: 'Hail hits on the gutters',
      job_id: null,
      created_by_id: owner.id,
      created_by_name: owner.name,
      created_at: expect.any(String),
      updated_at: pin.created_at,
      map_url: `http://localhost/map?pin=${pin.id}`,
      url: `http://localhost/pins/${pin.id}`,
    });
    expect(Date.parse(pin.created_at)).toBeGreaterThanOrEqual(before);
    expect(miles(pin, zipCentre('75201'))).toBeLessThanOrEqual(1.5);
    expect(await pinOf(ws, pin.id)).toEqual(pin);
  });

  test('the same address lands on the same spot, whatever its case and spacing', async () => {
    const { ws } = await fresh();
    const a = await newPin(ws);
    const b = await newPin(ws, { address: '  1420  ELM street ', postal_code: '75201' });
    expect([b.latitude, b.longitude]).toEqual([a.latitude, a.longitude]);
    const other = await newPin(ws, { address: '1500 Elm Street', postal_code: '75201' });
    expect([other.latitude, other.longitude]).not.toEqual([a.latitude, a.longitude]);
    expect(miles(other, zipCentre('75201'))).toBeLessThanOrEqual(1.5);
  });

  test('a city and state place it near the city (its first ZIP), filling the postal code', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, { address: '22 Larimer St', city: 'Denver', state: 'Colorado' });
    expect(pin).toMatchObject({ city: 'Denver', state: 'CO', address: '22 Larimer St' });
    expect(pin.postal_code).toMatch(/^80\d{3}$/);
    expect(miles(pin, zipCentre(pin.postal_code))).toBeLessThanOrEqual(1.5);
  });

  test('one address line alone is read as street, city, state and ZIP', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, { address: '1420 Elm Street, Dallas, TX 75201' });
    const same = await newPin(ws, DALLAS);
    expect(pin).toMatchObject({
      address: '1420 Elm Street',
      city: 'Dallas',
      state: 'TX',
      postal_code: '75201',
      latitude: same.latitude,
      longitude: same.longitude,
    });
  });

  test('a ZIP alone places the pin at its centre, with no street', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, { postal_code: '80202' });
    const centre = zipCentre('80202');
    expect(pin).toMatchObject({
      address: null,
      city: 'Denver',
      state: 'CO',
      postal_code: '80202',
      latitude: centre.latitude,
      longitude: centre.longitude,
    });
  });

  test('what the client sent is kept; the place fills in only what it left out', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, { address: '9 Main St', city: 'Uptown', postal_code: '75201' });
    expect(pin).toMatchObject({ city: 'Uptown', state: 'TX', postal_code: '75201' });
  });

  test.each([
    [{ address: '1 Main St', postal_code: '00000' }, 'postal_code'],
    [{ address: '1 Main St', postal_code: '99999' }, 'postal_code'],
    [{ address: '1 Main St', city: 'Atlantis', state: 'TX' }, 'city'],
    [{ address: '1 Main St', city: 'Dallas' }, 'state'],
    [{ address: '1 Main St', state: 'TX' }, 'city'],
    [{ address: '1 Main St' }, 'postal_code'],
  ])('an address that cannot be placed (%j) is 400 naming %s', async (body, field) => {
    const { ws } = await fresh();
    expectError(await ws.api.post('/pins', body), 400, 'invalid_request', field);
  });

  test('a state that is no US state is 400 naming state', async () => {
    const { ws } = await fresh();
    const res = await ws.api.post('/pins', { address: '1 Main', city: 'Paris', state: 'Île' });
    expectError(res, 400, 'invalid_request', 'state');
  });
});

describe('a knock logged at coordinates', () => {
  test("takes the nearest ZIP's city, state and postal code, and keeps its coordinates", async () => {
    const { ws } = await fresh();
    const centre = zipCentre('75201');
    const at = { latitude: centre.latitude + 0.001, longitude: centre.longitude - 0.001 };
    const pin = await newPin(ws, { ...at, knock_result: 'no_answer' });
    expect(pin).toMatchObject({
      ...at,
      address: null,
      city: 'Dallas',
      state: 'TX',
      postal_code: '75201',
      knock_result: 'no_answer',
    });
  });

  test('with an address sent too, the coordinates place it and the address is kept', async () => {
    const { ws } = await fresh();
    const centre = zipCentre('80202');
    const pin = await newPin(ws, {
      latitude: centre.latitude,
      longitude: centre.longitude,
      address: '1600 Glenarm Pl',
    });
    expect(pin).toMatchObject({
      address: '1600 Glenarm Pl',
      city: 'Denver',
      postal_code: '80202',
      latitude: centre.latitude,
      longitude: centre.longitude,
    });
  });

  test.each([
    ['London', { latitude: 51.5072, longitude: -0.1276 }, 'latitude'],
    ['mid-Atlantic', { latitude: 30, longitude: -40 }, 'latitude'],
    ['latitude over 90', { latitude: 91, longitude: -96.8 }, 'latitude'],
    ['latitude under -90', { latitude: -90.5, longitude: -96.8 }, 'latitude'],
    ['longitude over 180', { latitude: 32.8, longitude: 180.5 }, 'longitude'],
    ['longitude under -180', { latitude: 32.8, longitude: -181 }, 'longitude'],
    ['latitude without longitude', { latitude: 32.8 }, 'longitude'],
    ['longitude without latitude', { longitude: -96.8 }, 'latitude'],
    ['latitude as text', { latitude: '32.8', longitude: -96.8 }, 'latitude'],
  ])('%s is 400 naming %s', async (_what, body, field) => {
    const { ws } = await fresh();
    const res = await ws.api.post('/pins', body, { invalid: true });
    expectError(res, 400, 'invalid_request', field);
  });
});

describe('neither an address nor coordinates', () => {
  test.each([
    ['an empty body', {}],
    ['only a name and a result', { homeowner_name: 'Ann Lee', knock_result: 'interested' }],
    ['blank address fields', { address: '  ', city: '', postal_code: '' }],
    ['nulls', { address: null, latitude: null, longitude: null }],
  ])('%s is 400 naming address, and nothing is written', async (_what, body) => {
    const { ws } = await fresh();
    const res = await ws.api.post('/pins', body, { invalid: true });
    expectError(res, 400, 'invalid_request', 'address');
    expect((await ok(ws.api.get('/pins'))).data).toEqual([]);
  });
});

describe('the homeowner', () => {
  test.each([
    ['Mary Ann Smith', 'Mary Ann', 'Smith'],
    ['Cher', 'Cher', null],
    ['  Jo   Anne  ', 'Jo', 'Anne'],
  ])('homeowner_name %j splits into first %j and last %j', async (name, first, last) => {
    const { ws } = await fresh();
    const pin = await newPin(ws, { ...DALLAS, homeowner_name: name });
    expect(pin).toMatchObject({
      homeowner_name: name.trim().replace(/\s+/g, ' '),
      homeowner_first_name: first,
      homeowner_last_name: last,
    });
  });

  test('first or last sent win for their half, and the name is made again from the two', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, {
      ...DALLAS,
      homeowner_name: 'Bob Jones',
      homeowner_first_name: 'Robert',
    });
    expect(pin).toMatchObject({
      homeowner_name: 'Robert Jones',
      homeowner_first_name: 'Robert',
      homeowner_last_name: 'Jones',
    });
    const other = await newPin(ws, {
      ...DALLAS,
      homeowner_name: 'Ada King',
      homeowner_last_name: 'Lovelace',
    });
    expect(other).toMatchObject({
      homeowner_name: 'Ada Lovelace',
      homeowner_first_name: 'Ada',
      homeowner_last_name: 'Lovelace',
    });
  });

  test('a postal_code sent with coordinates must be a US ZIP: 400 naming it, nothing written', async () => {
    const { ws } = await fresh();
    const res = await ws.api.post('/pins', {
      latitude: 32.9,
      longitude: -96.9,
      postal_code: '00000',
    });
    expectError(res, 400, 'invalid_request', 'postal_code');
    expect((await ws.api.get('/pins')).body.data).toEqual([]);
  });

  test('with coordinates, the parts left out come from the ZIP sent, not from a ZIP near the point', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, {
      latitude: 32.9,
      longitude: -96.9,
      address: '1 Main St',
      postal_code: '10001',
    });
    expect(pin).toMatchObject({
      address: '1 Main St',
      city: 'New York',
      state: 'NY',
      postal_code: '10001',
      latitude: 32.9,
      longitude: -96.9,
    });
  });

  test('first and last without a name make the name', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, { ...DALLAS, homeowner_last_name: 'Okafor' });
    expect(pin).toMatchObject({
      homeowner_name: 'Okafor',
      homeowner_first_name: null,
      homeowner_last_name: 'Okafor',
    });
  });

  test('no name known: homeowner_name, first and last are null, never ""', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws);
    expect(pin).toMatchObject({
      homeowner_name: null,
      homeowner_first_name: null,
      homeowner_last_name: null,
      phone: null,
      email: null,
      notes: null,
      knock_result: null,
    });
  });

  test('blank phone, email and notes are null; a bad email is 400 naming email', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, { ...DALLAS, phone: ' ', email: '', notes: '  ' });
    expect(pin).toMatchObject({ phone: null, email: null, notes: null });
    expectError(
      await ws.api.post('/pins', { ...DALLAS, email: 'not-an-email' }),
      400,
      'invalid_request',
      'email',
    );
  });
});

describe('the rep who logged it', () => {
  test('created_by names a user of the workspace', async () => {
    const { ws } = await fresh('small');
    const rep = (await usersOf(ws)).find((u) => u.role === 'sales_rep');
    const pin = await newPin(ws, { ...DALLAS, created_by: rep.id.toUpperCase() });
    expect(pin).toMatchObject({ created_by_id: rep.id, created_by_name: rep.name });
  });

  test('without created_by, the workspace owner', async () => {
    const { ws } = await fresh('small');
    const owner = (await usersOf(ws)).find((u) => u.role === 'owner');
    expect((await newPin(ws)).created_by_id).toBe(owner.id);
  });

  test('a user of another workspace, or none, is 400 naming created_by', async () => {
    const { ws } = await fresh();
    const { ws: other } = await fresh();
    const [stranger] = await usersOf(other);
    for (const id of [stranger.id, UNKNOWN]) {
      const res = await ws.api.post('/pins', { ...DALLAS, created_by: id });
      expectError(res, 400, 'invalid_request', 'created_by');
    }
  });

  test('created_by that is no uuid is 400 naming created_by', async () => {
    const { ws } = await fresh();
    const res = await ws.api.post('/pins', { ...DALLAS, created_by: 'owner' }, { invalid: true });
    expectError(res, 400, 'invalid_request', 'created_by');
  });
});

describe('types and results', () => {
  test('pin_type defaults to knock; inspection may be sent', async () => {
    const { ws } = await fresh();
    expect((await newPin(ws)).pin_type).toBe('knock');
    expect((await newPin(ws, { ...DALLAS, pin_type: 'inspection' })).pin_type).toBe('inspection');
  });

  test.each([
    ['pin_type', 'job'],
    ['pin_type', 'door'],
    ['knock_result', 'maybe'],
    ['knock_result', 'Interested'],
  ])('%s %j is 400 naming it', async (field, value) => {
    const { ws } = await fresh();
    const res = await ws.api.post('/pins', { ...DALLAS, [field]: value }, { invalid: true });
    expectError(res, 400, 'invalid_request', field);
  });

  test.each([
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
  ])('knock_result %s is taken', async (result) => {
    const { ws } = await fresh();
    expect((await newPin(ws, { ...DALLAS, knock_result: result })).knock_result).toBe(result);
  });
});

describe('credentials and retries', () => {
  test('a read-only key is 403 forbidden, and nothing is written', async () => {
    const { ws } = await fresh();
    expectError(await ws.read.post('/pins', DALLAS), 403, 'forbidden');
    expect((await ok(ws.api.get('/pins'))).data).toEqual([]);
  });

  test('an Idempotency-Key replay answers the first pin and logs no second', async () => {
    const { ws } = await fresh();
    const headers = { 'Idempotency-Key': 'knock-1' };
    const first = await ws.api.post('/pins', DALLAS, { headers });
    const again = await ws.api.post('/pins', DALLAS, { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await ok(ws.api.get('/pins'))).data).toHaveLength(1);
  });
});
