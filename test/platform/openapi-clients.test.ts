// The document as client generators and validators read it (issue: typed nullability, required
// fields, what svc does with a path id): what it says must be what svc does, in a form
// openapi-typescript, redocly and Prism take the way svc means it.
import { describe, expect, test } from 'vitest';
import { Contract } from '../support/contract';
import { harness } from '../support/harness';

type Json = Record<string, unknown>;

async function documentOf(base: '/v1' | '/__admin'): Promise<Json> {
  return (await (await harness().app.request(`${base}/openapi.json`)).json()) as Json;
}

/** Every schema object in the document, with where it stands. */
function schemas(doc: unknown, at = ''): [string, Json][] {
  if (Array.isArray(doc)) {
    return doc.flatMap((v, i) => schemas(v, `${at}/${i}`));
  }
  if (typeof doc !== 'object' || doc === null) {
    return [];
  }
  const here: [string, Json][] = [[at, doc as Json]];
  return here.concat(Object.entries(doc).flatMap(([k, v]) => schemas(v, `${at}/${k}`)));
}

describe('nullability is typed', () => {
  test.each(['/v1', '/__admin'] as const)(
    '%s: every nullable schema has a type, and no nullable enumeration lists null itself',
    async (base) => {
      const found = schemas(await documentOf(base)).filter(([, s]) => s.nullable === true);
      expect(found.length).toBeGreaterThan(20);
      expect(found.filter(([, s]) => s.type === undefined).map(([at]) => at)).toEqual([]);
      const nullInEnum = found.filter(([, s]) => Array.isArray(s.enum) && s.enum.includes(null));
      expect(nullInEnum.map(([at]) => at)).toEqual([]);
    },
  );
});

describe('what the spec requires, the document requires', () => {
  const exchange = (method: string, path: string, body: unknown) => ({
    method,
    path,
    query: {},
    requestHeaders: { 'content-type': 'application/json', authorization: 'Bearer k' },
    requestBody: body,
    status: 400,
    responseHeaders: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
    responseBody: {
      error: { code: 'invalid_request', message: 'm', request_id: 'req_1', doc_url: 'http://x/d' },
    },
  });
  const id = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

  test.each([
    ['POST', '/jobs', {}, 'name and address (or their aliases) are required'],
    ['POST', '/jobs', { job_name: 'Roof' }, 'an address too'],
    ['PATCH', `/jobs/${id}`, { city: 42 }, 'a city is text'],
    ['POST', '/contacts', {}, 'a name, email, phone or company'],
    ['POST', '/webhooks', { event: 'job.created' }, 'target_url (or targetUrl)'],
    ['POST', '/webhooks', { target_url: 'https://x.example/h' }, 'event (or events)'],
    ['POST', '/tasks', { description: 'no title' }, 'a title, or an appointment type'],
  ])('%s %s %j is refused by the document: %s', async (method, path, body, _why) => {
    const contract = await Contract.load(await documentOf('/v1'));
    const problems = contract.check(exchange(method, path, body));
    expect(problems.some((p) => p.startsWith(`request ${method} ${path} violates`))).toBe(true);
  });

  test.each([
    ['POST', '/jobs', { job_name: 'Roof', property_address: '1 Main St' }],
    ['POST', '/jobs', { name: 'Roof', address: '1 Main St', tags: 'hail, wind' }],
    ['PATCH', `/jobs/${id}`, { city: null, tags: '' }],
    ['POST', '/contacts', { company: 'Acme' }],
    ['POST', '/webhooks', { events: ['job.created'], targetUrl: 'https://x.example/h' }],
    ['POST', '/tasks', { appointment_type: 'inspection' }],
  ])('%s %s %j is a request the document allows', async (method, path, body) => {
    const contract = await Contract.load(await documentOf('/v1'));
    const problems = contract.check(exchange(method, path, body));
    expect(problems.filter((p) => p.startsWith('request'))).toEqual([]);
  });

  test('sms_consent, which the API refuses, is not offered', async () => {
    const doc = (await documentOf('/v1')) as { components: { schemas: Record<string, Json> } };
    for (const name of ['ContactCreate', 'ContactUpdate']) {
      expect(doc.components.schemas[name]?.properties).not.toHaveProperty('sms_consent');
    }
  });
});

describe('what every delivery carries, its schema requires', () => {
  test.each([
    ['JobUpdatedDelivery', 'changed_fields'],
    ['JobStageChangedDelivery', 'previous_stage'],
    ['JobStageChangedDelivery', 'previous_stage_label'],
    ['JobAssignedDelivery', 'previous_assigned_to_id'],
    ['PinResultChangedDelivery', 'previous_knock_result'],
  ])('%s requires %s', async (name, field) => {
    const doc = (await documentOf('/v1')) as {
      components: {
        schemas: Record<string, { allOf: { properties: Json; required: string[] }[] }>;
      };
    };
    const own = doc.components.schemas[name]?.allOf[1];
    expect(own?.properties).toHaveProperty(field);
    expect(own?.required).toContain(field);
  });
});

describe('one truth about path ids', () => {
  test('an {id} is any text, and the document says one of another form is 404, not 400', async () => {
    const doc = (await documentOf('/v1')) as {
      paths: Record<string, Record<string, { parameters?: Json[]; responses: Json }>>;
    };
    const withId = Object.entries(doc.paths).filter(([path]) => path.includes('{id}'));
    expect(withId.length).toBeGreaterThan(10);
    for (const [path, ops] of withId) {
      for (const [verb, op] of Object.entries(ops)) {
        const param = op.parameters?.find((p) => p.name === 'id');
        expect(param, `${verb} ${path}`).toMatchObject({ in: 'path', schema: { type: 'string' } });
        expect((param?.schema as Json | undefined)?.format).toBeUndefined();
        expect(String(param?.description)).toMatch(/404/);
        expect(Object.keys(op.responses)).toContain('404');
        if (verb === 'get' && !path.endsWith('/jobs') && /\{id\}$/.test(path)) {
          expect(Object.keys(op.responses), `${verb} ${path}`).not.toContain('400');
        }
      }
    }
  });
});
