import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { expectError, fresh, OKC, OKC_ADDRESS, TODAY } from './setup';

// Every way GET /hail_history refuses a lookup (spec, Errors: 400 invalid_request, `field` names
// what to fix; United States only), and that no query makes it fail otherwise.

type Query = Record<string, string | number>;

const cases: [rule: string, query: Query, field: string][] = [
  ['neither an address nor coordinates is 400 naming address', {}, 'address'],
  ['a blank address alone is as if none were sent', { address: '   ' }, 'address'],
  ['latitude without longitude is 400 naming longitude', { latitude: 35.4 }, 'longitude'],
  ['longitude without latitude is 400 naming latitude', { longitude: -97.5 }, 'latitude'],
  ['an empty latitude is as if not sent', { latitude: '', longitude: -97.5 }, 'latitude'],
  ['a latitude that is no number is 400', { latitude: 'north', longitude: -97.5 }, 'latitude'],
  ['a hexadecimal latitude is no number', { latitude: '0x23', longitude: -97.5 }, 'latitude'],
  ['an infinite latitude is no number', { latitude: 'Infinity', longitude: -97.5 }, 'latitude'],
  ['a latitude over 90 is 400', { latitude: 90.5, longitude: -97.5 }, 'latitude'],
  ['a longitude under -180 is 400', { latitude: 35.4, longitude: -180.5 }, 'longitude'],
  ['a longitude that is no number is 400', { latitude: 35.4, longitude: '97W' }, 'longitude'],
  [
    'coordinates in London are outside the United States',
    { latitude: 51.5074, longitude: -0.1278 },
    'latitude',
  ],
  [
    'coordinates in the Gulf of Guinea (0, 0) are outside',
    { latitude: 0, longitude: 0 },
    'latitude',
  ],
  ['coordinates in Toronto are outside', { latitude: 43.6532, longitude: -79.3832 }, 'latitude'],
  [
    'an address and coordinates together are 400 naming address',
    { address: OKC_ADDRESS, ...OKC },
    'address',
  ],
  [
    'an address with latitude alone is 400 naming address',
    { address: OKC_ADDRESS, latitude: 35.4 },
    'address',
  ],
  ['an address whose ZIP is no US ZIP is 400', { address: '12 Main St, 00000' }, 'address'],
  ['an address with no ZIP and no city is 400', { address: '12 Main Street' }, 'address'],
  ['a city unknown in its state is 400', { address: '12 Main St, Nowhereville, OK' }, 'address'],
  ['an address abroad is 400', { address: '10 Downing Street, London, UK' }, 'address'],
  [
    'a Canadian postal code is no US address',
    { address: '290 Bremner Blvd, Toronto, ON M5V 3L9' },
    'address',
  ],
  [
    'an address over 300 characters is 400',
    { address: `${'9'.repeat(290)} Main St, 73103` },
    'address',
  ],
  ['an impossible since is 400', { ...OKC, since: '2025-02-30' }, 'since'],
  ['a since in words is 400', { ...OKC, since: 'last year' }, 'since'],
  ['a since with a time is 400: it is a date', { ...OKC, since: '2025-06-15T00:00:00Z' }, 'since'],
  ['a since with slashes is 400', { ...OKC, since: '2025/06/15' }, 'since'],
  ['a since after today is 400', { ...OKC, since: '2030-06-16' }, 'since'],
];

describe('GET /hail_history refuses', () => {
  test.each(cases)('%s', async (_rule, query, field) => {
    const { ws } = await fresh();
    const res = await ws.api.get('/hail_history', { query, invalid: true });
    expectError(res, 400, 'invalid_request', field);
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  test('a since of today itself (US Central) is allowed', async () => {
    const { ws } = await fresh();
    expect((await ws.api.get('/hail_history', { query: { ...OKC, since: TODAY } })).status).toBe(
      200,
    );
  });

  test('without a key it is 401; another verb is 405', async () => {
    const { h, ws } = await fresh();
    expectError(
      await h.anonymous.get('/hail_history', { query: OKC, invalid: true }),
      401,
      'unauthorized',
    );
    const post = await ws.api.raw('POST', '/hail_history');
    expectError(post, 405, 'method_not_allowed');
  });

  test('no query, however odd, answers other than 200 or 400 naming one of its parameters', async () => {
    const { ws } = await fresh();
    const text = fc.oneof(fc.string(), fc.constantFrom('', ' ', '73103', 'ok', '-', '1e400', '.5'));
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { address: text, latitude: text, longitude: text, since: text },
          { requiredKeys: [] },
        ),
        async (query) => {
          const res = await ws.api.get('/hail_history', { query, invalid: true });
          expect([200, 400]).toContain(res.status);
          if (res.status === 400) {
            expect(['address', 'latitude', 'longitude', 'since']).toContain(res.body.error.field);
          }
        },
      ),
      { numRuns: 150, seed: 21 },
    );
  });
});
