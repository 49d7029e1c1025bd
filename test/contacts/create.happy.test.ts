import { describe, expect, test } from 'vitest';
import { harness } from '../support/harness';
import { FULL_CONTACT, FULL_CONTACT_SHOWN } from './fixtures';

const setup = async () => {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace() };
};

describe('POST /contacts: the record', () => {
  test('answers 201 with every Contact field, null or [] where nothing was sent, and a url', async () => {
    const { h, ws } = await setup();
    const now = (await h.admin.get('/clock')).body.now;
    const res = await ws.api.post('/contacts', { email: 'pat@example.com' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'contact',
      first_name: null,
      last_name: null,
      full_name: null,
      email: 'pat@example.com',
      phone: null,
      company: null,
      type: 'homeowner',
      trades: [],
      address: null,
      city: null,
      state: null,
      postal_code: null,
      notes: null,
      claim_number: null,
      adjuster_type: null,
      adjuster_extension: null,
      assigned_to_id: null,
      assigned_to_name: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: res.body.created_at,
      url: `http://localhost/contacts/${res.body.id}`,
    });
    expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(Date.parse(now));
  });

  test('GET /contacts/{id} answers the contact exactly as created', async () => {
    const { ws } = await setup();
    const created = await ws.api.post('/contacts', { name: 'Dana Reyes', city: 'Nashville' });
    const res = await ws.api.get(`/contacts/${created.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
  });

  test('every field sent is stored, trimmed where it is text', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', { ...FULL_CONTACT, first_name: ' Ann ' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(FULL_CONTACT_SHOWN);
  });

  test('fields the API does not know are ignored, not stored and not refused', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', { name: 'Ivy Park', favourite_color: 'teal' });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('favourite_color');
    expect((await ws.api.get(`/contacts/${res.body.id}`)).body).not.toHaveProperty(
      'favourite_color',
    );
  });
});

describe('POST /contacts: null fields', () => {
  // spec, Conventions: a value the service does not have is null.
  test('every optional field sent as null is taken as not sent: null, [] or its default', async () => {
    const { ws } = await setup();
    const fields = ['first_name', 'last_name', 'name', 'phone', 'company', 'type', 'trades']
      .concat(['address', 'city', 'state', 'postal_code', 'notes', 'claim_number'])
      .concat(['adjuster_type', 'adjuster_extension', 'assigned_to']);
    const body = { email: 'pat@example.com', ...Object.fromEntries(fields.map((f) => [f, null])) };
    const res = await ws.api.post('/contacts', body);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      email: 'pat@example.com',
      first_name: null,
      phone: null,
      type: 'homeowner',
      trades: [],
      state: null,
      assigned_to_id: null,
    });
  });

  test('null for every identifying field is still no contact: 400 naming name', async () => {
    const { ws } = await setup();
    const res = await ws.api.post(
      '/contacts',
      { name: null, email: null, phone: null, company: null },
      { invalid: true }, // the document asks for one of them, as a string
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'name' });
  });
});

describe('POST /contacts: names', () => {
  // decisions.md: `name` splits on the last space; one word is a first name
  test.each([
    ['Mary Ann Smith', 'Mary Ann', 'Smith', 'Mary Ann Smith'],
    ['Bob Jones', 'Bob', 'Jones', 'Bob Jones'],
    ['Cher', 'Cher', null, 'Cher'],
    ['  Jo   de  Vries  ', 'Jo de', 'Vries', 'Jo de Vries'],
  ])('name %j is split into first %j and last %j', async (name, first, last, full) => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', { name });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ first_name: first, last_name: last, full_name: full });
  });

  test('name is not split when first_name and last_name are sent: they win', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', {
      name: 'Bob Jones',
      first_name: 'Robert',
      last_name: 'Jonas',
    });
    expect(res.body).toMatchObject({
      first_name: 'Robert',
      last_name: 'Jonas',
      full_name: 'Robert Jonas',
    });
  });

  // spec, ContactCreate: name is split "when those are not sent": each half on its own
  test.each([
    [{ first_name: 'Robert' }, 'Robert', 'Jones'],
    [{ last_name: 'Jonas' }, 'Bob', 'Jonas'],
    [{ first_name: '' }, null, 'Jones'],
  ])(
    'name beside %j fills only the half not sent: first %j, last %j',
    async (sent, first, last) => {
      const { ws } = await setup();
      const res = await ws.api.post('/contacts', { name: 'Bob Jones', ...sent });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ first_name: first, last_name: last });
      expect((await ws.api.get(`/contacts/${res.body.id}`)).body).toEqual(res.body);
    },
  );

  test.each([
    [{ first_name: 'Ann' }, 'Ann'],
    [{ last_name: 'Lee' }, 'Lee'],
    [{ first_name: 'Ann', last_name: 'Lee' }, 'Ann Lee'],
    [{ company: 'Acme Roofing' }, null],
  ])('full_name of %j is %j', async (body, full) => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', body);
    expect(res.body.full_name).toBe(full);
  });
});

describe('POST /contacts: identity', () => {
  // spec, ContactCreate: at least one of a name, email, phone or company
  test.each([
    [{ company: 'Acme Roofing' }],
    [{ email: 'x@example.com' }],
    [{ phone: '6155550148' }],
    [{ name: 'Cher' }],
    [{ first_name: 'Ann' }],
    [{ last_name: 'Lee' }],
  ])('%j alone is enough', async (body) => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', body);
    expect(res.status).toBe(201);
    expect(res.body.object).toBe('contact');
  });
});

describe('POST /contacts: email', () => {
  test('an email with spaces around is trimmed, then checked and stored', async () => {
    const { ws } = await setup();
    // The document states the email format; svc forgives the spaces around it.
    const res = await ws.api.post('/contacts', { email: '  Pat@Example.com ' }, { invalid: true });
    expect(res.status, res.text).toBe(201);
    expect(res.body.email).toBe('pat@example.com');
  });

  test('an email is stored lower-case', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', { email: 'Pat.Doe@Example.COM' });
    expect(res.body.email).toBe('pat.doe@example.com');
  });
});

describe('POST /contacts: phone', () => {
  // decisions.md, Phones: a recognisable US number is stored as (615) 555-0148, whatever the form
  test.each([
    ['+16155550148', '(615) 555-0148'],
    ['615-555-0148', '(615) 555-0148'],
    ['(615) 555-0148', '(615) 555-0148'],
    ['615.555.0148', '(615) 555-0148'],
    ['1 615 555 0148', '(615) 555-0148'],
    ['+1 615.555.0148', '(615) 555-0148'],
    ['6155550148', '(615) 555-0148'],
    ['1-615-555-0148', '(615) 555-0148'],
    [' 615 555 0148 ', '(615) 555-0148'],
    ['615-555-0148 x12', '(615) 555-0148 x12'],
    ['615-555-0148 ext 12', '(615) 555-0148 x12'],
    ['(615) 555-0148 ext. 7', '(615) 555-0148 x7'],
    ['615.555.0148 extension 345', '(615) 555-0148 x345'],
    ['615-555-0148 (cell)', '(615) 555-0148'],
    ['(615) 555-0148 #22', '(615) 555-0148 x22'],
    ['Tel: 615 555 0148', '(615) 555-0148'],
    ['phone: 615-555-0148', '(615) 555-0148'],
    ['615-555-0148 ext', '(615) 555-0148'],
    ['615-555-0148 x12 (office)', '(615) 555-0148 x12'],
    ['+1 615 555 0148;ext=22', '(615) 555-0148 x22'],
    ['６１５５５５０１４８', '(615) 555-0148'],
  ])('phone %j is stored as %j', async (phone, stored) => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', { phone });
    expect(res.status).toBe(201);
    expect(res.body.phone).toBe(stored);
  });

  // spec, ContactCreate: "any format"; what is not a recognisable US number is kept as sent
  test.each([
    '0044 20 7123 4567',
    '020 7123 4567',
    '555-0148',
    '+44 20 7123 4567',
    '+442071234567',
    '+33 1 23 45 67 89',
    '+354 555 1234',
    'call me',
    '12345',
    '615-555-01489',
    '2 615 555 0148',
    '(115) 555-0148',
    '+12',
    '615-555-0148 x123456789',
    '615-555-0148 x22, alt 615-555-0199',
    '615-555-0148 #2 / 615-555-0199 (wife)',
    '(615) 555-0148 / (615) 555-0199',
    '615-555-0148 x12 (after 5pm only)',
  ])('phone %j, not one recognisable US number, is stored as sent', async (phone) => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', { name: 'Pat Doe', phone });
    expect(res.status, res.text).toBe(201);
    expect(res.body.phone).toBe(phone);
  });

  test('a phone kept as sent is trimmed, and blank is null', async () => {
    const { ws } = await setup();
    const kept = await ws.api.post('/contacts', { name: 'Pat Doe', phone: '  0044 20 7123 4567 ' });
    expect(kept.body.phone).toBe('0044 20 7123 4567');
    const blank = await ws.api.post('/contacts', { name: 'Pat Doe', phone: '   ' });
    expect(blank.body.phone).toBeNull();
  });
});

describe('POST /contacts: blank text is null, and text is trimmed before it is measured', () => {
  // spec, Conventions: a value the service does not have is null, not an empty string
  test.each(['email', 'notes', 'company', 'phone'])(
    '%s sent blank is stored as null',
    async (field) => {
      const { ws } = await setup();
      const res = await ws.api.post('/contacts', { name: 'Pat Doe', [field]: ' \n\t ' });
      expect(res.status, res.text).toBe(201);
      expect(res.body[field]).toBeNull();
    },
  );

  test.each([
    ['phone', '6'.repeat(100)],
    ['notes', 'n'.repeat(10_000)],
  ])('%s at its cap with spaces around is accepted, trimmed', async (field, value) => {
    const { ws } = await setup();
    // Over the document's maxLength as sent: svc is kinder, and measures what it keeps.
    const res = await ws.api.post(
      '/contacts',
      { name: 'Pat Doe', [field]: `  ${value}  ` },
      { invalid: true },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body[field]).toBe(value);
  });
});

describe('POST /contacts: type, trades, state, assignee', () => {
  test('type defaults to homeowner', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', { name: 'Ann Lee' });
    expect(res.body.type).toBe('homeowner');
  });

  test.each([
    'homeowner',
    'commercial',
    'adjuster',
    'contractor',
    'subcontractor',
    'install_crew',
    'inspector',
    'mortgage_company',
    'other',
  ])('type %s is accepted and stored', async (type) => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', { name: 'Ann Lee', type });
    expect(res.status).toBe(201);
    expect(res.body.type).toBe(type);
  });

  test('trades are trimmed, blanks dropped, repeats kept once, as tags are', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', {
      company: 'Gutter Pros',
      type: 'subcontractor',
      trades: [' gutters', '', 'gutters', 'siding '],
    });
    expect(res.body.trades).toEqual(['gutters', 'siding']);
  });

  test('trades of a subcontractor are stored in order', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', {
      company: 'Gutter Pros',
      type: 'subcontractor',
      trades: ['gutters', 'siding'],
    });
    expect(res.body.trades).toEqual(['gutters', 'siding']);
  });

  test.each([
    ['TN', 'TN'],
    ['tn', 'TN'],
    ['Tennessee', 'TN'],
    [' new york ', 'NY'],
    ['District of Columbia', 'DC'],
  ])('state %j is stored as the code %j', async (state, code) => {
    const { ws } = await setup();
    const res = await ws.api.post('/contacts', { name: 'Ann Lee', state });
    expect(res.status).toBe(201);
    expect(res.body.state).toBe(code);
  });

  test('assigned_to names a teammate: stored as assigned_to_id with their name', async () => {
    const { ws } = await setup();
    const user = (await ws.api.get('/users')).body.data[0];
    const res = await ws.api.post('/contacts', { name: 'Ann Lee', assigned_to: user.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ assigned_to_id: user.id, assigned_to_name: user.name });
  });
});
