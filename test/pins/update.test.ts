import { describe, expect, test } from 'vitest';
import {
  advance,
  DALLAS,
  expectError,
  fresh,
  newPin,
  ok,
  patchPin,
  pinOf,
  UNKNOWN,
  usersOf,
  zipCentre,
} from './setup';

// PATCH /pins/{id} and DELETE /pins/{id}: spec, Canvassing pins (every field the body lists;
// "the logging rep never changes") and Conventions (only fields sent change, null clears);
// decisions.md, Pins (no re-placing on PATCH; created_by may only name the rep already there; a
// job's pin stays pin_type job; a deleted pin is gone for good).

/** A pin with every field filled. */
const FULL = {
  ...DALLAS,
  knock_result: 'follow_up',
  homeowner_name: 'Dana Whitfield',
  phone: '2145550148',
  email: 'dana@example.com',
  notes: 'Come back after six',
};

describe('every field the spec lists', () => {
  test.each([
    ['knock_result', 'appointment_scheduled', 'appointment_scheduled'],
    ['pin_type', 'inspection', 'inspection'],
    ['latitude', 32.8, 32.8],
    ['longitude', -96.79, -96.79],
    ['address', '12 Oak Lane', '12 Oak Lane'],
    ['city', 'Highland Park', 'Highland Park'],
    ['state', 'oklahoma', 'OK'],
    ['postal_code', '75205', '75205'],
    ['phone', '+1 (469) 555-0199', '(469) 555-0199'],
    ['email', 'NEW@Example.com', 'new@example.com'],
    ['notes', 'Signed up for an inspection', 'Signed up for an inspection'],
    ['homeowner_first_name', 'Danielle', 'Danielle'],
    ['homeowner_last_name', 'Moss', 'Moss'],
  ])('%s changes, and only it (and updated_at)', async (field, sent, stored) => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, FULL);
    await advance(h, 5);
    const after = await patchPin(ws, pin.id, { [field]: sent });
    expect(after[field]).toEqual(stored);
    const untouched = Object.keys(pin).filter(
      (k) => k !== field && k !== 'updated_at' && !k.startsWith('homeowner'),
    );
    for (const key of untouched) {
      expect(after[key], key).toEqual(pin[key]);
    }
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(pin.updated_at));
    expect(await pinOf(ws, pin.id)).toEqual(after);
  });

  test.each([
    'knock_result',
    'address',
    'city',
    'state',
    'postal_code',
    'homeowner_first_name',
    'homeowner_last_name',
    'phone',
    'email',
    'notes',
  ])('%s: null clears it', async (field) => {
    const { ws } = await fresh();
    const pin = await newPin(ws, FULL);
    expect(pin[field]).not.toBeNull();
    expect((await patchPin(ws, pin.id, { [field]: null }))[field]).toBeNull();
  });

  test.each(['address', 'city', 'state', 'postal_code', 'phone', 'email', 'notes'])(
    '%s: a blank value clears it too (null, never "")',
    async (field) => {
      const { ws } = await fresh();
      const pin = await newPin(ws, FULL);
      expect((await patchPin(ws, pin.id, { [field]: '  ' }))[field]).toBeNull();
    },
  );

  test('moving the address does not move the pin: only the fields sent change', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws);
    const moved = await patchPin(ws, pin.id, { address: '1 Larimer St', postal_code: '80202' });
    expect(moved).toMatchObject({
      address: '1 Larimer St',
      postal_code: '80202',
      city: 'Dallas',
      latitude: pin.latitude,
      longitude: pin.longitude,
    });
  });

  test('moving the coordinates keeps the address fields', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws);
    const denver = zipCentre('80202');
    const moved = await patchPin(ws, pin.id, {
      latitude: denver.latitude,
      longitude: denver.longitude,
    });
    expect(moved).toMatchObject({
      latitude: denver.latitude,
      longitude: denver.longitude,
      city: 'Dallas',
      postal_code: '75201',
    });
  });
});

describe('the knock result', () => {
  test('null clears it', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, { ...DALLAS, knock_result: 'interested' });
    expect((await patchPin(ws, pin.id, { knock_result: null })).knock_result).toBeNull();
  });

  test.each(['maybe', '', 'INTERESTED', 7])(
    '%j is 400 naming knock_result, and the pin is unchanged',
    async (value) => {
      const { ws } = await fresh();
      const pin = await newPin(ws, { ...DALLAS, knock_result: 'interested' });
      const res = await ws.api.patch(`/pins/${pin.id}`, { knock_result: value }, { invalid: true });
      expectError(res, 400, 'invalid_request', 'knock_result');
      expect(await pinOf(ws, pin.id)).toEqual(pin);
    },
  );
});

describe('fields that cannot be cleared or take no such value', () => {
  test.each([
    ['latitude', null],
    ['longitude', null],
    ['pin_type', null],
    ['latitude', 95],
    ['longitude', -200],
    ['pin_type', 'door'],
  ])('%s %j is 400 naming it', async (field, value) => {
    const { ws } = await fresh();
    const pin = await newPin(ws);
    const res = await ws.api.patch(`/pins/${pin.id}`, { [field]: value }, { invalid: true });
    expectError(res, 400, 'invalid_request', field);
  });

  test.each([
    [{ latitude: 51.5072, longitude: -0.1276 }, 'latitude'],
    [{ latitude: 60 }, 'latitude'],
    [{ longitude: 10 }, 'longitude'],
  ])('coordinates %j outside the United States are 400 naming %s', async (body, field) => {
    const { ws } = await fresh();
    const pin = await newPin(ws);
    expectError(await ws.api.patch(`/pins/${pin.id}`, body), 400, 'invalid_request', field);
    expect(await pinOf(ws, pin.id)).toEqual(pin);
  });
});

describe('the homeowner name', () => {
  test('homeowner_name splits into first and last again', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, FULL);
    expect(await patchPin(ws, pin.id, { homeowner_name: 'Mary Ann Smith' })).toMatchObject({
      homeowner_name: 'Mary Ann Smith',
      homeowner_first_name: 'Mary Ann',
      homeowner_last_name: 'Smith',
    });
  });

  test('a one-word name clears the last name', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, FULL);
    expect(await patchPin(ws, pin.id, { homeowner_name: 'Cher' })).toMatchObject({
      homeowner_first_name: 'Cher',
      homeowner_last_name: null,
    });
  });

  test('with a first name in the same body, that half is the one sent, and the name follows', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, FULL);
    const after = await patchPin(ws, pin.id, {
      homeowner_name: 'Bob Jones',
      homeowner_first_name: 'Robert',
    });
    expect(after).toMatchObject({
      homeowner_name: 'Robert Jones',
      homeowner_first_name: 'Robert',
      homeowner_last_name: 'Jones',
    });
  });

  test('first or last alone make the name again', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, FULL);
    expect(await patchPin(ws, pin.id, { homeowner_last_name: 'Moss' })).toMatchObject({
      homeowner_name: 'Dana Moss',
      homeowner_first_name: 'Dana',
      homeowner_last_name: 'Moss',
    });
    expect(await patchPin(ws, pin.id, { homeowner_first_name: null })).toMatchObject({
      homeowner_name: 'Moss',
      homeowner_first_name: null,
    });
  });

  test.each([null, '', '  '])('%j forgets the name: it, first and last are null', async (value) => {
    const { ws } = await fresh();
    const pin = await newPin(ws, FULL);
    expect(await patchPin(ws, pin.id, { homeowner_name: value })).toMatchObject({
      homeowner_name: null,
      homeowner_first_name: null,
      homeowner_last_name: null,
    });
  });

  test('first and last both cleared: the name is null, not ""', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, FULL);
    const after = await patchPin(ws, pin.id, {
      homeowner_first_name: null,
      homeowner_last_name: null,
    });
    expect(after).toMatchObject({
      homeowner_name: null,
      homeowner_first_name: null,
      homeowner_last_name: null,
    });
  });
});

describe('a postal_code sent on PATCH', () => {
  test.each(['hello', '00000', '1234'])(
    '%j, no US ZIP, is 400 naming it and nothing changes',
    async (zip) => {
      const { ws } = await fresh();
      const pin = await newPin(ws);
      const res = await ws.api.patch(`/pins/${pin.id}`, { postal_code: zip, notes: 'x' });
      expectError(res, 400, 'invalid_request', 'postal_code');
      expect(await pinOf(ws, pin.id)).toEqual(pin);
    },
  );

  test('a US ZIP is kept as sent; null clears it', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws);
    expect(await patchPin(ws, pin.id, { postal_code: '75202' })).toMatchObject({
      postal_code: '75202',
    });
    expect(await patchPin(ws, pin.id, { postal_code: null })).toMatchObject({ postal_code: null });
  });
});

describe('the logging rep never changes', () => {
  test.each(['created_by_id', 'created_by'])(
    '%s naming another user is 400 naming it, and nothing changes',
    async (field) => {
      const { ws } = await fresh('small');
      const pin = await newPin(ws, FULL);
      const other = (await usersOf(ws)).find((u) => u.id !== pin.created_by_id);
      const res = await ws.api.patch(`/pins/${pin.id}`, { [field]: other.id, notes: 'x' });
      expectError(res, 400, 'invalid_request', field);
      expect(await pinOf(ws, pin.id)).toEqual(pin);
    },
  );

  test('created_by_id naming the rep already there is taken: a whole record sent back works', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, FULL);
    const after = await patchPin(ws, pin.id, { ...pin, knock_result: 'lost' });
    expect(after).toEqual({ ...pin, knock_result: 'lost', updated_at: after.updated_at });
  });

  test('created_by_name is the rep, shown: sent, it changes nothing', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, FULL);
    const after = await patchPin(ws, pin.id, { created_by_name: 'Someone Else' });
    expect(after).toEqual(pin);
  });
});

describe('what a PATCH that changes nothing does', () => {
  test('nothing: the same pin, updated_at as it was', async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, FULL);
    await advance(h, 5);
    expect(await patchPin(ws, pin.id, { knock_result: 'follow_up', notes: FULL.notes })).toEqual(
      pin,
    );
    expect(await patchPin(ws, pin.id, {})).toEqual(pin);
  });
});

describe('which pin', () => {
  test('an unknown id, or one of another form, is 404', async () => {
    const { ws } = await fresh();
    for (const id of [UNKNOWN, 'not-a-pin']) {
      expectError(await ws.api.patch(`/pins/${id}`, { notes: 'x' }), 404, 'not_found');
      expectError(await ws.api.get(`/pins/${id}`), 404, 'not_found');
      expectError(await ws.api.delete(`/pins/${id}`), 404, 'not_found');
    }
  });

  test("another workspace's pin is 404", async () => {
    const { ws } = await fresh();
    const { ws: other } = await fresh();
    const pin = await newPin(other);
    expectError(await ws.api.get(`/pins/${pin.id}`), 404, 'not_found');
    expectError(await ws.api.patch(`/pins/${pin.id}`, { notes: 'x' }), 404, 'not_found');
    expectError(await ws.api.delete(`/pins/${pin.id}`), 404, 'not_found');
  });

  test('an id in upper case names the same pin', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws);
    expect(await pinOf(ws, pin.id.toUpperCase())).toEqual(pin);
  });
});

describe('DELETE /pins/{id}', () => {
  test('answers the deleted confirmation; then the pin is 404 and gone from the list', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws);
    const kept = await newPin(ws, { postal_code: '80202' });
    expect(await ok(ws.api.delete(`/pins/${pin.id}`))).toEqual({
      id: pin.id,
      object: 'pin',
      deleted: true,
    });
    expectError(await ws.api.get(`/pins/${pin.id}`), 404, 'not_found');
    expectError(await ws.api.delete(`/pins/${pin.id}`), 404, 'not_found');
    expectError(await ws.api.patch(`/pins/${pin.id}`, { notes: 'x' }), 404, 'not_found');
    const ids = (await ok(ws.api.get('/pins'))).data.map((p: { id: string }) => p.id);
    expect(ids).toEqual([kept.id]);
  });
});

describe('a read-only key', () => {
  test('PATCH and DELETE are 403 forbidden, and the pin is unchanged', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, FULL);
    expectError(await ws.read.patch(`/pins/${pin.id}`, { knock_result: 'lost' }), 403, 'forbidden');
    expectError(await ws.read.delete(`/pins/${pin.id}`), 403, 'forbidden');
    expect(await ok(ws.read.get(`/pins/${pin.id}`))).toEqual(pin);
  });
});
