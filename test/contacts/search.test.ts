import { describe, expect, test } from 'vitest';
import { type Harness, harness, type TestWorkspace } from '../support/harness';

// The empty profile seeds no contacts: a search finds only what the test made.
const setup = async () => {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace() };
};

const tick = (h: Harness) => h.admin.post('/clock', { advance_seconds: 1 });

async function contact(h: Harness, ws: TestWorkspace, body: Record<string, unknown>) {
  const res = await ws.api.post('/contacts', body);
  expect(res.status).toBe(201);
  await tick(h);
  return res.body.id as string;
}

const search = async (ws: TestWorkspace, query: Record<string, string | number>) => {
  const res = await ws.api.get('/contacts/search', { query });
  expect(res.status).toBe(200);
  return res.body;
};
const found = async (ws: TestWorkspace, query: Record<string, string | number>) =>
  ((await search(ws, query)).data as { id: string }[]).map((c) => c.id).sort();

describe('GET /contacts/search: each criterion', () => {
  test.each(['pat@example.com', 'PAT@Example.com', ' pat@example.com '])(
    'email %j matches the whole address, case-insensitive',
    async (email) => {
      const { h, ws } = await setup();
      const pat = await contact(h, ws, { email: 'pat@example.com' });
      await contact(h, ws, { email: 'patrick@example.com' });
      expect(await found(ws, { email })).toEqual([pat]);
    },
  );

  test('email matches only whole: part of an address finds nothing', async () => {
    const { h, ws } = await setup();
    await contact(h, ws, { email: 'pat@example.com' });
    expect(await found(ws, { email: 'pat' })).toEqual([]);
    expect(await found(ws, { email: 'example.com' })).toEqual([]);
  });

  // spec, Contacts: a phone matches however typed
  test.each([
    '+16155550148',
    '615-555-0148',
    '(615) 555-0148',
    '615.555.0148',
    '1 615 555 0148',
    '6155550148',
    '+1 (615) 555-0148',
  ])('phone %j finds the contact stored as (615) 555-0148', async (phone) => {
    const { h, ws } = await setup();
    const a = await contact(h, ws, { name: 'Ann Lee', phone: '(615) 555-0148' });
    await contact(h, ws, { name: 'Bo Diaz', phone: '615-555-0149' });
    expect(await found(ws, { phone })).toEqual([a]);
  });

  test.each([
    ['Tel: 615 555 0148 (cell)', '615-555-0148'],
    ['(615) 555-0148 #22', '+1 615 555 0148'],
    ['0044 20 7123 4567', '00442071234567'],
    ['020 7123 4567', '020-7123-4567'],
    ['555-0148', '555 0148'],
    ['０４４ ２０ ７１２３', '044207123'],
    ['+44 20 7123 4567', '0044 20 7123 4567'],
    ['0044 20 7123 4567', '+44 20 7123 4567'],
  ])('a contact whose phone came as %j is found by %j', async (stored, typed) => {
    const { h, ws } = await setup();
    const a = await contact(h, ws, { name: 'Ann Lee', phone: stored });
    await contact(h, ws, { name: 'Bo Diaz', phone: '615-555-0149' });
    expect(await found(ws, { phone: typed })).toEqual([a]);
  });

  test('phone matches a contact stored with an extension by its number', async () => {
    const { h, ws } = await setup();
    const a = await contact(h, ws, { name: 'Ann Lee', phone: '615-555-0148 x12' });
    expect(await found(ws, { phone: '615 555 0148' })).toEqual([a]);
  });

  test('phone matches an international number however typed', async () => {
    const { h, ws } = await setup();
    const a = await contact(h, ws, { name: 'Ann Lee', phone: '+44 20 7123 4567' });
    expect(await found(ws, { phone: '+442071234567' })).toEqual([a]);
    expect(await found(ws, { phone: '+44 (20) 7123-4567' })).toEqual([a]);
  });

  test('phone matches only the whole number: part of it finds nothing', async () => {
    const { h, ws } = await setup();
    await contact(h, ws, { name: 'Ann Lee', phone: '615-555-0148' });
    expect(await found(ws, { phone: '555-0148' })).toEqual([]);
    expect(await found(ws, { phone: '615' })).toEqual([]);
  });

  test.each([
    ['Mary Ann', 'a first name'],
    ['smith', 'a last name'],
    ['Mary Ann Smith', '"first last"'],
    ['  MARY   ANN smith ', '"first last" however spaced and cased'],
    ['Acme Roofing', 'a company'],
    ['acme roofing', 'a company, case-insensitive'],
  ])('name %j matches %s', async (name) => {
    const { h, ws } = await setup();
    const mary = await contact(h, ws, {
      first_name: 'Mary Ann',
      last_name: 'Smith',
      company: 'Acme Roofing',
    });
    await contact(h, ws, { first_name: 'Bob', last_name: 'Jones', company: 'Zenith Gutters' });
    expect(await found(ws, { name })).toEqual([mary]);
  });

  test.each(['Mar', 'Mary', 'Smit', 'Acme', 'Mary Smith'])(
    'name %j is not a whole first, last, full or company name: nothing',
    async (name) => {
      const { h, ws } = await setup();
      await contact(h, ws, { first_name: 'Mary Ann', last_name: 'Smith', company: 'Acme Roofing' });
      expect(await found(ws, { name })).toEqual([]);
    },
  );

  test('name finds every contact that matches', async () => {
    const { h, ws } = await setup();
    const a = await contact(h, ws, { first_name: 'Sam', last_name: 'Lee' });
    const b = await contact(h, ws, { first_name: 'Ann', last_name: 'Sam' });
    const c = await contact(h, ws, { company: 'SAM' });
    await contact(h, ws, { first_name: 'Samuel', last_name: 'Lee' });
    expect(await found(ws, { name: 'sam' })).toEqual([a, b, c].sort());
  });
});

describe('GET /contacts/search: the first criterion that matches wins', () => {
  test('email wins over phone and name that match other contacts', async () => {
    const { h, ws } = await setup();
    const byEmail = await contact(h, ws, { email: 'pat@example.com' });
    await contact(h, ws, { phone: '615-555-0148' });
    await contact(h, ws, { name: 'Pat Doe' });
    expect(
      await found(ws, { email: 'pat@example.com', phone: '6155550148', name: 'Pat Doe' }),
    ).toEqual([byEmail]);
  });

  test('an email that matches nobody falls through to phone', async () => {
    const { h, ws } = await setup();
    const byPhone = await contact(h, ws, { phone: '615-555-0148' });
    await contact(h, ws, { name: 'Pat Doe' });
    expect(
      await found(ws, { email: 'nobody@example.com', phone: '6155550148', name: 'Pat Doe' }),
    ).toEqual([byPhone]);
  });

  test('email and phone that match nobody fall through to name', async () => {
    const { h, ws } = await setup();
    await contact(h, ws, { phone: '615-555-0148' });
    const byName = await contact(h, ws, { name: 'Pat Doe' });
    expect(
      await found(ws, { email: 'nobody@example.com', phone: '6155550199', name: 'pat doe' }),
    ).toEqual([byName]);
  });

  test('phone wins over a name that matches another contact', async () => {
    const { h, ws } = await setup();
    const byPhone = await contact(h, ws, { name: 'Ann Lee', phone: '615-555-0148' });
    await contact(h, ws, { name: 'Pat Doe' });
    expect(await found(ws, { phone: '(615) 555-0148', name: 'Pat Doe' })).toEqual([byPhone]);
  });

  test('nothing matching any criterion is an empty list', async () => {
    const { h, ws } = await setup();
    await contact(h, ws, { name: 'Pat Doe', email: 'pat@example.com', phone: '615-555-0148' });
    expect(
      await found(ws, { email: 'x@example.com', phone: '6155550199', name: 'Nobody' }),
    ).toEqual([]);
  });
});

describe('GET /contacts/search: the list', () => {
  test('criteria longer than any field can hold find nothing, and are no error', async () => {
    const { h, ws } = await setup();
    await contact(h, ws, { name: 'Pat Doe', email: 'pat@example.com', phone: '615-555-0148' });
    for (const [key, value] of [
      ['email', `${'p'.repeat(300)}@example.com`],
      ['phone', '6'.repeat(60)],
      ['name', 'P'.repeat(300)],
    ] as [string, string][]) {
      const res = await ws.api.get('/contacts/search', { query: { [key]: value } });
      expect(res.status, key).toBe(200);
      expect(res.body.data).toEqual([]);
    }
  });

  test('no criteria is an empty list, never the newest contacts', async () => {
    const { h, ws } = await setup();
    await contact(h, ws, { name: 'Pat Doe' });
    const queries: Record<string, string | number>[] = [
      {},
      { email: '', phone: '', name: '' },
      { name: '   ' },
      { limit: 5 },
    ];
    for (const query of queries) {
      expect(await search(ws, query)).toEqual({
        object: 'list',
        data: [],
        has_more: false,
        next_cursor: null,
      });
    }
  });

  // spec, Conventions: lists are newest first; `found` sorts ids, so this reads the order as sent
  test('matches come newest first', async () => {
    const { h, ws } = await setup();
    const older = await contact(h, ws, {
      first_name: 'Sam',
      last_name: 'Lee',
      phone: '615-555-0101',
    });
    const middle = await contact(h, ws, { company: 'Sam', phone: '(615) 555-0101' });
    const newest = await contact(h, ws, {
      first_name: 'Ann',
      last_name: 'Sam',
      phone: '6155550101',
    });
    const ids = async (query: Record<string, string>) =>
      ((await search(ws, query)).data as { id: string }[]).map((c) => c.id);
    expect(await ids({ name: 'sam' })).toEqual([newest, middle, older]);
    expect(await ids({ phone: '+1 615 555 0101' })).toEqual([newest, middle, older]);
  });

  // decisions.md, Lists: /search is not paged: up to limit, has_more false, next_cursor null
  test('limit caps the matches; the answer is never paged', async () => {
    const { h, ws } = await setup();
    for (let i = 0; i < 4; i++) {
      await contact(h, ws, { first_name: 'Sam', last_name: `Lee${i}` });
    }
    const two = await search(ws, { name: 'sam', limit: 2 });
    expect(two.data).toHaveLength(2);
    expect(two).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect((await search(ws, { name: 'sam' })).data).toHaveLength(4);
  });

  test('a limit that is not an integer is 400 field limit', async () => {
    const { ws } = await setup();
    const res = await ws.api.get('/contacts/search', {
      query: { name: 'sam', limit: 'lots' },
      invalid: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'limit' });
  });

  test('matches are whole Contact records', async () => {
    const { h, ws } = await setup();
    const id = await contact(h, ws, { name: 'Pat Doe', email: 'pat@example.com' });
    const res = await search(ws, { email: 'pat@example.com' });
    expect(res.data).toEqual([(await ws.api.get(`/contacts/${id}`)).body]);
  });

  test('a deleted contact is not found by email, phone or name', async () => {
    const { h, ws } = await setup();
    const id = await contact(h, ws, {
      name: 'Pat Doe',
      email: 'pat@example.com',
      phone: '615-555-0148',
    });
    const twin = await contact(h, ws, { name: 'Pat Doe' });
    await ws.api.delete(`/contacts/${id}`);
    expect(await found(ws, { email: 'pat@example.com' })).toEqual([]);
    expect(await found(ws, { phone: '615-555-0148' })).toEqual([]);
    expect(await found(ws, { name: 'Pat Doe' })).toEqual([twin]);
  });

  test('a deleted email match does not stop the search falling through to phone', async () => {
    const { h, ws } = await setup();
    const gone = await contact(h, ws, { email: 'pat@example.com' });
    const byPhone = await contact(h, ws, { phone: '615-555-0148' });
    await ws.api.delete(`/contacts/${gone}`);
    expect(await found(ws, { email: 'pat@example.com', phone: '615-555-0148' })).toEqual([byPhone]);
  });

  test("another workspace's contacts are never found", async () => {
    const { h, ws } = await setup();
    const other = await h.workspace();
    await contact(h, other, { name: 'Pat Doe', email: 'pat@example.com', phone: '615-555-0148' });
    expect(await found(ws, { email: 'pat@example.com' })).toEqual([]);
    expect(await found(ws, { phone: '615-555-0148' })).toEqual([]);
    expect(await found(ws, { name: 'Pat Doe' })).toEqual([]);
  });

  test('a read-only key may search', async () => {
    const { h, ws } = await setup();
    const id = await contact(h, ws, { email: 'pat@example.com' });
    const res = await ws.read.get('/contacts/search', { query: { email: 'pat@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
  });
});
