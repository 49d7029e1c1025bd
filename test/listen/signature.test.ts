import { createHmac, timingSafeEqual } from 'node:crypto';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { parseSignature, verifySignature } from '../../src/clients/listen/signature';

// The spy wraps the real function: every case below still compares for real.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const SECRET = 'whsec_current0123456789';
const OLD = 'whsec_previous0123456789';
const NOW = 1_800_000_000;
const BODY = Buffer.from('{"id":"7b0c","event_type":"job.created","event_id":"e1"}');

// Signed here with node:crypto alone, as the spec describes, not with the code under test.
const v1 = (secret: string, t: number, body: Buffer = BODY) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');

const verify = (
  header: string | undefined,
  over: Partial<Parameters<typeof verifySignature>[0]> = {},
) =>
  verifySignature({
    header,
    body: BODY,
    secrets: [SECRET],
    nowSeconds: NOW,
    toleranceSeconds: 300,
    ...over,
  });

beforeEach(() => {
  vi.mocked(timingSafeEqual).mockClear();
});

describe('verifySignature', () => {
  test.each([
    ['a v1 of the secret over t and the raw body is ok', `t=${NOW},v1=${v1(SECRET, NOW)}`, 'ok'],
    [
      'any of two v1 values matching is ok (the new one second)',
      `t=${NOW},v1=${v1(OLD, NOW)},v1=${v1(SECRET, NOW)}`,
      'ok',
    ],
    [
      'any of two v1 values matching is ok (the new one first)',
      `t=${NOW},v1=${v1(SECRET, NOW)},v1=${v1(OLD, NOW)}`,
      'ok',
    ],
    ['spaces after the commas are tolerated', `t=${NOW}, v1=${v1(SECRET, NOW)}`, 'ok'],
    ['an unknown scheme beside v1 is skipped', `t=${NOW},v0=abc,v1=${v1(SECRET, NOW)}`, 'ok'],
    [
      'a v1 made with another secret is bad-signature',
      `t=${NOW},v1=${v1(OLD, NOW)}`,
      'bad-signature',
    ],
    [
      'a v1 over another body is bad-signature',
      `t=${NOW},v1=${v1(SECRET, NOW, Buffer.from('{"id":"7b0c"}'))}`,
      'bad-signature',
    ],
    ['a v1 over another t is bad-signature', `t=${NOW},v1=${v1(SECRET, NOW - 1)}`, 'bad-signature'],
    ['a v1 that is not 64 hex digits is bad-signature', `t=${NOW},v1=abc123`, 'bad-signature'],
    ['an upper-case v1 still matches', `t=${NOW},v1=${v1(SECRET, NOW).toUpperCase()}`, 'ok'],
    ['no header is missing-signature', undefined, 'missing-signature'],
    ['an empty header is missing-signature', '', 'missing-signature'],
    ['a header without t is malformed', `v1=${v1(SECRET, NOW)}`, 'malformed-signature'],
    ['a header without v1 is malformed', `t=${NOW}`, 'malformed-signature'],
    [
      'a t that is not a number is malformed',
      `t=soon,v1=${v1(SECRET, NOW)}`,
      'malformed-signature',
    ],
    [
      'two t values are malformed',
      `t=${NOW},t=${NOW},v1=${v1(SECRET, NOW)}`,
      'malformed-signature',
    ],
    ['a part without = is malformed', `t=${NOW},${v1(SECRET, NOW)}`, 'malformed-signature'],
    ['a bare hex digest is malformed', v1(SECRET, NOW), 'malformed-signature'],
    [
      'a t 301 seconds in the past is stale-timestamp',
      `t=${NOW - 301},v1=${v1(SECRET, NOW - 301)}`,
      'stale-timestamp',
    ],
    [
      'a t 301 seconds in the future is stale-timestamp',
      `t=${NOW + 301},v1=${v1(SECRET, NOW + 301)}`,
      'stale-timestamp',
    ],
    ['a t exactly 300 seconds old is ok', `t=${NOW - 300},v1=${v1(SECRET, NOW - 300)}`, 'ok'],
    ['a t exactly 300 seconds ahead is ok', `t=${NOW + 300},v1=${v1(SECRET, NOW + 300)}`, 'ok'],
    [
      'a stale t with a forged v1 is reported as bad-signature',
      `t=${NOW - 900},v1=${v1(OLD, NOW - 900)}`,
      'bad-signature',
    ],
  ])('%s', (_rule, header, verdict) => {
    expect(verify(header)).toBe(verdict);
  });

  test('with two secrets configured (a rotation), a v1 of either is ok', () => {
    const secrets = [OLD, SECRET];
    expect(verify(`t=${NOW},v1=${v1(SECRET, NOW)}`, { secrets })).toBe('ok');
    expect(verify(`t=${NOW},v1=${v1(OLD, NOW)}`, { secrets })).toBe('ok');
    expect(verify(`t=${NOW},v1=${v1('whsec_other', NOW)}`, { secrets })).toBe('bad-signature');
  });

  test('--tolerance widens the window in both directions', () => {
    const past = NOW - 3000;
    const future = NOW + 3000;
    expect(verify(`t=${past},v1=${v1(SECRET, past)}`)).toBe('stale-timestamp');
    expect(verify(`t=${past},v1=${v1(SECRET, past)}`, { toleranceSeconds: 3600 })).toBe('ok');
    expect(verify(`t=${future},v1=${v1(SECRET, future)}`, { toleranceSeconds: 3600 })).toBe('ok');
  });

  test('the body is checked as raw bytes: re-serialised JSON with the same meaning fails', () => {
    const header = `t=${NOW},v1=${v1(SECRET, NOW)}`;
    const reformatted = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 2));
    expect(verify(header, { body: reformatted })).toBe('bad-signature');
  });

  test('digests are compared with crypto.timingSafeEqual on equal-length buffers, with no early exit', () => {
    const spy = vi.mocked(timingSafeEqual);
    const header = `t=${NOW},v1=${v1(SECRET, NOW)},v1=${v1(OLD, NOW)}`;
    expect(verify(header, { secrets: [SECRET, 'whsec_third'] })).toBe('ok');
    // two candidates x two secrets, although the very first comparison matched
    expect(spy).toHaveBeenCalledTimes(4);
    for (const [a, b] of spy.mock.calls) {
      expect(Buffer.isBuffer(a) && Buffer.isBuffer(b)).toBe(true);
      expect((a as Buffer).length).toBe(32);
      expect((b as Buffer).length).toBe(32);
    }
  });

  test('a v1 of the wrong length never reaches timingSafeEqual (which would throw)', () => {
    expect(verify(`t=${NOW},v1=${v1(SECRET, NOW).slice(0, 62)}`)).toBe('bad-signature');
    expect(vi.mocked(timingSafeEqual)).not.toHaveBeenCalled();
  });
});

describe('parseSignature', () => {
  test('reads t and every v1 in order', () => {
    expect(parseSignature('t=12,v1=aa,v1=bb')).toEqual({ t: 12, v1: ['aa', 'bb'] });
  });

  test.each(['', 't=', 't=1', 'v1=aa', 't=-5,v1=aa', 't=1.5,v1=aa', '=1,v1=aa', 'garbage'])(
    '%j is not a signature header',
    (header) => {
      expect(parseSignature(header)).toBeUndefined();
    },
  );
});
