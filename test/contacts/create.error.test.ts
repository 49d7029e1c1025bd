import { describe, expect, test } from 'vitest';
import { harness, type TestWorkspace } from '../support/harness';

const setup = async () => {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace() };
};

/** The contacts the workspace holds: a refused create adds none. */
const contactIds = async (ws: TestWorkspace): Promise<string[]> =>
  (await ws.api.get('/contacts', { query: { limit: 200 } })).body.data.map(
    (c: { id: string }) => c.id,
  );

describe('POST /contacts: 400 invalid_request naming the field, nothing written', () => {
  // spec, ContactCreate: at least one of a name, email, phone or company, else 400
  test.each([
    [{}],
    [{ type: 'adjuster', city: 'Nashville', notes: 'met at the door' }],
    [{ name: '   ' }],
    [{ first_name: '', last_name: '' }],
    [{ phone: '' }],
    [{ email: '  ' }],
    [{ trades: ['roofing'], address: '12 Elm St' }],
  ])('a contact with no name, email, phone or company (%j) is 400 field name', async (body) => {
    const { ws } = await setup();
    const before = await contactIds(ws);
    // Some of these the document refuses too (no identifying field at all): sent on purpose.
    const res = await ws.api.post('/contacts', body, { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'name' });
    expect(await contactIds(ws)).toEqual(before);
  });

  test.each(['not-an-email', 'pat@', '@example.com', 'pat example@example.com'])(
    'email %j is 400 field email',
    async (email) => {
      const { ws } = await setup();
      const before = await contactIds(ws);
      const res = await ws.api.post('/contacts', { name: 'Pat Doe', email }, { invalid: true });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'email' });
      expect(await contactIds(ws)).toEqual(before);
    },
  );

  // spec, ContactCreate: phone is "any format"; only what is not text, or over 100 characters, is refused
  test.each<[string, unknown]>([
    ['a number', 6155550148],
    ['an array', ['615-555-0148']],
    ['over 100 characters', '6'.repeat(101)],
  ])('a phone that is %s is 400 field phone', async (_what, phone) => {
    const { ws } = await setup();
    const before = await contactIds(ws);
    const res = await ws.api.post('/contacts', { name: 'Pat Doe', phone }, { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'phone' });
    expect(await contactIds(ws)).toEqual(before);
  });

  test.each(['plumber', 'Homeowner', ''])('type %j is 400 field type', async (type) => {
    const { ws } = await setup();
    const before = await contactIds(ws);
    const res = await ws.api.post('/contacts', { name: 'Pat Doe', type }, { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'type' });
    expect(await contactIds(ws)).toEqual(before);
  });

  test.each(['Narnia', 'XX', 'Texass'])('state %j is 400 field state', async (state) => {
    const { ws } = await setup();
    const before = await contactIds(ws);
    const res = await ws.api.post('/contacts', { name: 'Pat Doe', state });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'state' });
    expect(await contactIds(ws)).toEqual(before);
  });

  test('trades that are not an array of strings is 400 field trades', async () => {
    const { ws } = await setup();
    const res = await ws.api.post(
      '/contacts',
      { name: 'Pat Doe', trades: 'roofing' },
      { invalid: true },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'trades' });
  });

  test('assigned_to of a random uuid is 400 field assigned_to', async () => {
    const { ws } = await setup();
    const before = await contactIds(ws);
    const res = await ws.api.post('/contacts', {
      name: 'Pat Doe',
      assigned_to: crypto.randomUUID(),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'assigned_to' });
    expect(await contactIds(ws)).toEqual(before);
  });

  test("assigned_to of another workspace's user is 400 field assigned_to", async () => {
    const { h, ws } = await setup();
    const before = await contactIds(ws);
    const other = await h.workspace();
    const stranger = (await other.api.get('/users')).body.data[0];
    const res = await ws.api.post('/contacts', { name: 'Pat Doe', assigned_to: stranger.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'assigned_to' });
    expect(await contactIds(ws)).toEqual(before);
  });

  test('assigned_to that is not a uuid is 400 field assigned_to', async () => {
    const { ws } = await setup();
    const res = await ws.api.post(
      '/contacts',
      { name: 'Pat Doe', assigned_to: 'bob' },
      { invalid: true },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'assigned_to' });
  });

  // spec, Scope rule 4 + decisions.md: sms_consent is refused, whatever its value, so a client
  // never believes consent was recorded
  test.each([true, false, null, 'yes', 0])(
    'sms_consent %j is 400 field sms_consent and writes nothing',
    async (sms_consent) => {
      const { ws } = await setup();
      const before = await contactIds(ws);
      const res = await ws.api.post('/contacts', { name: 'Pat Doe', sms_consent });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'sms_consent' });
      expect(await contactIds(ws)).toEqual(before);
    },
  );

  test('a name over 200 characters is 400 field name', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', { name: 'a'.repeat(201) }, { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'name' });
  });
});
