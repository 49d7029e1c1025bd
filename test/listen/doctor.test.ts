// The signature doctor (issue 19): when a signature fails, why (clock skew, a body re-encoded on
// the way, another secret); when one verifies beside a v1 no given secret made, a rotation.
// spec, Signature verification.
import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { diagnose } from '../../src/clients/listen/doctor';
import { type SignatureVerdict, verifySignature } from '../../src/clients/listen/signature';

const SECRET = 'whsec_doctor_current';
const NEW = 'whsec_doctor_new';
const NOW = 1_800_000_000;
// as svc sends it: compact JSON, non-ASCII as UTF-8
const RECORD = {
  id: '7b0c4d2e-1111-4222-8333-94445555aa11',
  name: 'Roof – 12 Elm St',
  tags: ['hail', { empty: [], note: 'side' }],
  meta: {},
  amount: 1.5,
  closed_at: null,
  event_type: 'job.created',
};
const SENT = JSON.stringify(RECORD);

// Signed here with node:crypto alone, as the spec describes, not with the code under test.
const v1 = (secret: string, t: number, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
const header = (t: number, body = SENT, secrets = [SECRET]) =>
  `t=${t},${secrets.map((s) => `v1=${v1(s, t, body)}`).join(',')}`;

/** The verdict the listener makes, then the doctor's word on it. */
function examine(signature: string | undefined, received: string | Buffer, secrets = [SECRET]) {
  const input = {
    header: signature,
    body: Buffer.isBuffer(received) ? received : Buffer.from(received),
    secrets,
    nowSeconds: NOW,
    toleranceSeconds: 300,
  };
  const verdict: SignatureVerdict = verifySignature(input);
  return { verdict, diagnosis: diagnose(input, verdict) };
}

describe('clock skew', () => {
  test('a t 412 s behind is stale: the doctor says by how much and past which tolerance', () => {
    expect(examine(header(NOW - 412), SENT)).toEqual({
      verdict: 'stale-timestamp',
      diagnosis: {
        kind: 'clock-skew',
        text: "clock skew: t is 412 s behind this machine's clock, 112 s past the 300 s tolerance",
      },
    });
  });

  test('a t 301 s ahead is skew the other way, 1 s past the tolerance', () => {
    expect(examine(header(NOW + 301), SENT).diagnosis?.text).toBe(
      "clock skew: t is 301 s ahead of this machine's clock, 1 s past the 300 s tolerance",
    );
  });
});

describe('a body re-encoded on the way', () => {
  test.each([
    ['pretty-printed by 2', JSON.stringify(RECORD, null, 2), 'compact JSON'],
    [
      'spaced as Python json.dumps does',
      SENT.replaceAll('":', '": ').replaceAll(',"', ', "'),
      'compact JSON',
    ],
    ['with non-ASCII escaped', SENT.replace('–', '\\u2013'), 'compact JSON'],
    ['with a line break added', `${SENT}\n`, 'compact JSON'],
    [
      'read as Latin-1 and written as UTF-8',
      Buffer.from(Buffer.from(SENT).toString('latin1'), 'utf8'),
      'its text is turned back from UTF-8 into Latin-1 (read with the wrong charset on the way)',
    ],
  ])('a body %s fails, and verifies once re-serialised as %s', (_how, received, as) => {
    const { verdict, diagnosis } = examine(header(NOW), received);
    expect(verdict).toBe('bad-signature');
    expect(diagnosis).toEqual({
      kind: 're-encoded',
      text: `the body was re-encoded on the way: it verifies once ${as.startsWith('its') ? as : `re-serialised as ${as}`}`,
    });
  });

  test.each([
    ['indented by 2', JSON.stringify(RECORD, null, 2), 'JSON indented by 2'],
    ['indented by 4', JSON.stringify(RECORD, null, 4), 'JSON indented by 4'],
    [
      'with its keys sorted',
      JSON.stringify(Object.fromEntries(Object.entries(RECORD).sort())),
      'JSON with its keys sorted',
    ],
  ])('a sender that signed JSON %s, compacted on the way, is found too', (_how, signed, as) => {
    const { diagnosis } = examine(header(NOW, signed), SENT);
    expect(diagnosis?.text).toBe(
      `the body was re-encoded on the way: it verifies once re-serialised as ${as}`,
    );
  });

  test('re-encoded and late: both are said', () => {
    const { verdict, diagnosis } = examine(header(NOW - 400), JSON.stringify(RECORD, null, 2));
    expect(verdict).toBe('bad-signature');
    expect(diagnosis?.text).toBe(
      "the body was re-encoded on the way: it verifies once re-serialised as compact JSON; and t is 400 s behind this machine's clock, 100 s past the 300 s tolerance",
    );
  });

  test('a body whose meaning changed is no re-encoding: it is another secret as far as can be told', () => {
    const changed = SENT.replace('job.created', 'job.deleted');
    expect(examine(header(NOW), changed).diagnosis?.kind).toBe('another-secret');
  });
});

describe('another secret', () => {
  test('none of the given secrets made the v1 and nothing else explains it', () => {
    expect(examine(header(NOW, SENT, ['whsec_someone_else']), SENT)).toEqual({
      verdict: 'bad-signature',
      diagnosis: {
        kind: 'another-secret',
        text: 'signed with another secret: your secret does not match, and neither clock skew nor a re-encoded body explains it',
      },
    });
  });

  test('with two secrets given, the line counts them', () => {
    const { diagnosis } = examine(header(NOW, SENT, ['whsec_x']), SENT, [SECRET, NEW]);
    expect(diagnosis?.text).toMatch(/^signed with another secret: none of your 2 secrets matches,/);
  });

  test('a v1 that is no 64-digit hex digest is said to be none', () => {
    expect(examine(`t=${NOW},v1=abc123`, SENT).diagnosis).toEqual({
      kind: 'not-hmac-sha256',
      text: 'no v1 is a 64-digit hex HMAC-SHA256',
    });
  });
});

describe('secret rotation', () => {
  test('a delivery that verifies beside a v1 no given secret made warns of a rotation and its 24 hours', () => {
    const { verdict, diagnosis } = examine(header(NOW, SENT, [NEW, SECRET]), SENT);
    expect(verdict).toBe('ok');
    expect(diagnosis).toEqual({
      kind: 'secret-rotating',
      text: "secret rotating: another v1 matches none of your secrets; the subscription's secret is being rotated: take the new one within 24 hours",
    });
  });

  test('no warning when every v1 is matched by a given secret', () => {
    expect(examine(header(NOW, SENT, [NEW, SECRET]), SENT, [SECRET, NEW])).toEqual({
      verdict: 'ok',
      diagnosis: undefined,
    });
  });

  test('no warning for a single v1', () => {
    expect(examine(header(NOW), SENT).diagnosis).toBeUndefined();
  });
});

test.each([
  ['missing', undefined],
  ['malformed', 'sha256=abc'],
])('a %s header gets no diagnosis: its verdict says all', (_what, signature) => {
  expect(examine(signature, SENT).diagnosis).toBeUndefined();
});
