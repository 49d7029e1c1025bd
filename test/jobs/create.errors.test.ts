import { describe, expect, test } from 'vitest';
import type { TestWorkspace } from '../support/harness';
import { BASE, newContact, newJob, setup, UNKNOWN } from './setup';

/** Nothing of a refused create is kept: no job, no note, no job number used up. */
async function expectNothingWritten(ws: TestWorkspace) {
  expect((await ws.api.get('/jobs', { query: { archived: 'any' } })).body.data).toEqual([]);
  expect((await ws.api.get('/notes')).body.data).toEqual([]);
  expect((await newJob(ws)).job_number).toBe('J-1001');
}

// Bodies the document itself refuses (schema): sent with { invalid: true }.
const MALFORMED: [string, string, Record<string, unknown>][] = [
  ['name missing', 'name', { address: BASE.address }],
  ['address missing', 'address', { name: BASE.name }],
  ['name empty', 'name', { ...BASE, name: '' }],
  ['name only spaces', 'name', { ...BASE, name: '   ' }],
  ['address empty', 'address', { ...BASE, address: '' }],
  ['name over 200', 'name', { ...BASE, name: 'n'.repeat(201) }],
  ['job_name over 200', 'job_name', { address: BASE.address, job_name: 'n'.repeat(201) }],
  ['address over 300', 'address', { ...BASE, address: 'a'.repeat(301) }],
  [
    'property_address over 300',
    'property_address',
    { name: BASE.name, property_address: 'a'.repeat(301) },
  ],
  ['name a number', 'name', { ...BASE, name: 42 }],
  ['job_type unknown', 'job_type', { ...BASE, job_type: 'commercial' }],
  ['priority unknown', 'priority', { ...BASE, priority: 'asap' }],
  ['financing_method unknown', 'financing_method', { ...BASE, financing_method: 'barter' }],
  ['pipeline_id not a uuid', 'pipeline_id', { ...BASE, pipeline_id: 'retail' }],
  ['homeowner_id not a uuid', 'homeowner_id', { ...BASE, homeowner_id: 'dana' }],
  ['assigned_to not a uuid', 'assigned_to', { ...BASE, assigned_to: 'me' }],
  ['date_of_loss impossible', 'date_of_loss', { ...BASE, date_of_loss: '2026-02-30' }],
  ['date_of_loss US style', 'date_of_loss', { ...BASE, date_of_loss: '05/14/2026' }],
  ['date_of_loss unpadded', 'date_of_loss', { ...BASE, date_of_loss: '2026-5-4' }],
  [
    'contract_date a date-time',
    'contract_date',
    { ...BASE, contract_date: '2026-05-14T10:00:00Z' },
  ],
  ['installation_date month 13', 'installation_date', { ...BASE, installation_date: '2026-13-01' }],
  ['rcv_amount negative', 'rcv_amount', { ...BASE, rcv_amount: -1 }],
  ['acv_amount negative', 'acv_amount', { ...BASE, acv_amount: -0.01 }],
  ['deductible negative', 'deductible', { ...BASE, deductible: -500 }],
  ['supplements_amount negative', 'supplements_amount', { ...BASE, supplements_amount: -2 }],
  ['estimated_amount negative', 'estimated_amount', { ...BASE, estimated_amount: -3 }],
  ['final_amount negative', 'final_amount', { ...BASE, final_amount: -4 }],
  ['final_amount over a billion', 'final_amount', { ...BASE, final_amount: 1e9 + 1 }],
  ['rcv_amount a string', 'rcv_amount', { ...BASE, rcv_amount: '100' }],
  ['damage_types a number', 'damage_types', { ...BASE, damage_types: 5 }],
  ['tags of numbers', 'tags[0]', { ...BASE, tags: [1, 2] }],
  ['a tag that is not a string', 'tags[1]', { ...BASE, tags: ['vip', 7] }],
  ['a tag over 100', 'tags[0]', { ...BASE, tags: ['t'.repeat(101)] }],
  // decisions.md: the comma-separated form is held to the array's caps once it is split
  ['a comma-separated tag over 100', 'tags', { ...BASE, tags: `vip,${'t'.repeat(101)}` }],
  [
    '101 comma-separated tags',
    'tags',
    { ...BASE, tags: Array.from({ length: 101 }, (_, i) => `t${i}`).join(',') },
  ],
  [
    'a comma-separated damage type over 100',
    'damage_types',
    { ...BASE, damage_types: 'h'.repeat(101) },
  ],
  ['notes over 10000', 'notes', { ...BASE, notes: 'x'.repeat(10_001) }],
];

// A blank or wrong value under an alias is reported under the alias: the spelling sent.
const ALIASES: [string, string, Record<string, unknown>][] = [
  ['job_name only spaces', 'job_name', { job_name: '  ', address: BASE.address }],
  ['job_name empty', 'job_name', { job_name: '', address: BASE.address }],
  ['job_name null', 'job_name', { job_name: null, address: BASE.address }],
  ['name empty beside a job_name', 'name', { name: '', job_name: 'x', address: BASE.address }],
  ['property_address empty', 'property_address', { name: BASE.name, property_address: '' }],
  ['property_address only spaces', 'property_address', { name: 'n', property_address: '   ' }],
  ['property_address null', 'property_address', { name: BASE.name, property_address: null }],
  ['zip over 20', 'zip', { ...BASE, zip: '7'.repeat(21) }],
  ['zip a number', 'zip', { ...BASE, zip: 75201 }],
];

// Bodies the document allows, that name something the workspace does not have.
const UNKNOWN_REFS: [string, string, Record<string, unknown>][] = [
  ['state not a state', 'state', { ...BASE, state: 'Texass' }],
  ['state an unknown code', 'state', { ...BASE, state: 'ZZ' }],
  ['stage unknown', 'stage', { ...BASE, stage: 'negotiating' }],
  ['pipeline_id unknown', 'pipeline_id', { ...BASE, pipeline_id: UNKNOWN }],
  ['homeowner_id unknown', 'homeowner_id', { ...BASE, homeowner_id: UNKNOWN }],
  ['adjuster_id unknown', 'adjuster_id', { ...BASE, adjuster_id: UNKNOWN }],
  ['assigned_to unknown', 'assigned_to', { ...BASE, assigned_to: UNKNOWN }],
];

describe('a refused create is 400 invalid_request naming the field, and writes nothing', () => {
  test.each(MALFORMED)('%s → 400 with field %s', async (_case, field, body) => {
    const { ws } = await setup('empty');
    const res = await ws.api.post(
      '/jobs',
      { notes: 'must not be kept', ...body },
      { invalid: true },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    await expectNothingWritten(ws);
  });

  test.each(ALIASES)('%s → 400 with field %s', async (_case, field, body) => {
    const { ws } = await setup('empty');
    const res = await ws.api.post(
      '/jobs',
      { notes: 'must not be kept', ...body },
      { invalid: true },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    await expectNothingWritten(ws);
  });

  test.each(UNKNOWN_REFS)('%s → 400 with field %s', async (_case, field, body) => {
    const { ws } = await setup('empty');
    const res = await ws.api.post('/jobs', { notes: 'must not be kept', ...body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    await expectNothingWritten(ws);
  });

  test('a stage that is not on the given pipeline is 400 with field stage', async () => {
    const { ws, retail } = await setup('empty');
    for (const stage of ['claim_filed', 'Claim Filed', 'Adjuster Meeting']) {
      const res = await ws.api.post('/jobs', { ...BASE, pipeline_id: retail.id, stage });
      expect(res.status, stage).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'stage' });
    }
    await expectNothingWritten(ws);
  });

  test('a body that is not a JSON object is 400 with no field', async () => {
    const { ws } = await setup('empty');
    const res = await ws.api.post('/jobs', [BASE], { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.field).toBeUndefined();
    await expectNothingWritten(ws);
  });

  test('a JSON body whose bytes are not UTF-8 is no JSON: 400 with no field', async () => {
    const { ws } = await setup('empty');
    const [open, close] = ['{"name":"', `","address":"${BASE.address}"}`].map((t) =>
      Buffer.from(t),
    );
    const body = Buffer.concat([open as Buffer, Buffer.from([0xff, 0xfe]), close as Buffer]);
    const res = await ws.api.raw('POST', '/jobs', {
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request' });
    expect(res.body.error.field).toBeUndefined();
    await expectNothingWritten(ws);
  });

  test('U+FFFD sent as UTF-8 is text like any other, kept as sent', async () => {
    const { ws } = await setup('empty');
    const res = await ws.api.raw('POST', '/jobs', {
      body: Buffer.from(JSON.stringify({ ...BASE, name: 'Hale \uFFFD roof' })),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe('Hale \uFFFD roof');
  });

  // decisions.md: "each tag or damage type <= 100" characters, counted as every other cap is (an
  // emoji is one character, two UTF-16 units), whichever form the list is sent in.
  test('a tag of 100 emoji is taken, as an array or comma-separated; 101 is 400 naming tags', async () => {
    const { ws } = await setup('empty');
    const tag = '😀'.repeat(100);
    for (const tags of [[tag], `vip,${tag}`]) {
      const res = await ws.api.post('/jobs', { ...BASE, tags });
      expect(res.status, res.text).toBe(201);
      expect(res.body.tags).toContain(tag);
    }
    const over = await ws.api.post('/jobs', { ...BASE, tags: `vip,${tag}😀` }, { invalid: true });
    expect(over.status).toBe(400);
    expect(over.body.error.field).toBe('tags');
  });
});

describe('references must belong to this workspace', () => {
  test.each(['homeowner_id', 'adjuster_id'])(
    "another workspace's contact as %s is refused exactly as a nonexistent one",
    async (field) => {
      const { h, ws } = await setup('empty');
      const other = await h.workspace({ profile: 'empty' });
      const theirs = await newContact(other, { name: 'Not Yours' });
      const foreign = await ws.api.post('/jobs', { ...BASE, [field]: theirs.id });
      const missing = await ws.api.post('/jobs', { ...BASE, [field]: UNKNOWN });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error).toMatchObject({ code: 'invalid_request', field });
      const { request_id: _a, ...seen } = foreign.body.error;
      const { request_id: _b, ...unseen } = missing.body.error;
      expect(seen).toEqual(unseen);
      await expectNothingWritten(ws);
    },
  );

  test('a deleted contact cannot be named as homeowner', async () => {
    const { ws } = await setup('empty');
    const gone = await newContact(ws);
    expect((await ws.api.delete(`/contacts/${gone.id}`)).status).toBe(200);
    const res = await ws.api.post('/jobs', { ...BASE, homeowner_id: gone.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'homeowner_id' });
  });

  test("another workspace's user as assigned_to is 400 with field assigned_to", async () => {
    const { h, ws } = await setup('empty');
    const other = await setup('small', h);
    const res = await ws.api.post('/jobs', { ...BASE, assigned_to: other.users[0]?.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'assigned_to' });
    await expectNothingWritten(ws);
  });

  test("another workspace's pipeline is 400 with field pipeline_id", async () => {
    const { h, ws } = await setup('empty');
    const other = await setup('empty', h);
    const res = await ws.api.post('/jobs', { ...BASE, pipeline_id: other.retail.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'pipeline_id' });
    await expectNothingWritten(ws);
  });
});

describe('access', () => {
  test('a read-only key cannot create a job: 403 forbidden, nothing written', async () => {
    const { ws } = await setup('empty');
    const res = await ws.read.post('/jobs', { ...BASE, notes: 'no' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    await expectNothingWritten(ws);
  });

  test('a read-only key is refused before the body is read (403, not 400)', async () => {
    const { ws } = await setup('empty');
    const res = await ws.read.post('/jobs', { name: '' }, { invalid: true });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });
});
