import { createHmac, timingSafeEqual } from 'node:crypto';

// spec, Signature verification: each v1 is hex HMAC-SHA256 over `<t>.<raw body>` keyed with the
// subscription secret; accept if any v1 matches; reject a t more than five minutes off.

export type SignatureVerdict =
  | 'ok'
  | 'missing-signature'
  | 'malformed-signature'
  | 'bad-signature'
  | 'stale-timestamp';

export interface ParsedSignature {
  t: number;
  v1: string[];
}

export interface VerifyInput {
  header: string | undefined;
  body: Buffer;
  secrets: readonly string[];
  nowSeconds: number;
  toleranceSeconds: number;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** `t=<unix_seconds>,v1=<hex>[,v1=<hex>]`; unknown schemes (v0, v2) are skipped, as Stripe does. */
export function parseSignature(header: string): ParsedSignature | undefined {
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 1) {
      return undefined;
    }
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) {
        return undefined;
      }
      t = Number(value);
    } else if (name === 'v1') {
      v1.push(value);
    }
  }
  return t === undefined || v1.length === 0 ? undefined : { t, v1 };
}

export function verifySignature(input: VerifyInput): SignatureVerdict {
  if (input.header === undefined || input.header.trim() === '') {
    return 'missing-signature';
  }
  const parsed = parseSignature(input.header);
  if (!parsed) {
    return 'malformed-signature';
  }
  if (!matchedCandidates(parsed, input.body, input.secrets).some(Boolean)) {
    return 'bad-signature';
  }
  // Checked after the signature: a forged header is reported as such, whatever its t.
  if (Math.abs(input.nowSeconds - parsed.t) > input.toleranceSeconds) {
    return 'stale-timestamp';
  }
  return 'ok';
}

/** For each v1 of the header, in order: whether one of `secrets` made it over `<t>.<body>`. */
export function matchedCandidates(
  parsed: ParsedSignature,
  body: Buffer,
  secrets: readonly string[],
): boolean[] {
  const signed = Buffer.concat([Buffer.from(`${parsed.t}.`), body]);
  const expected = secrets.map((secret) => createHmac('sha256', secret).update(signed).digest());
  // Every candidate is compared with every secret, with no early exit: the time taken does not
  // tell an attacker which value came close.
  return parsed.v1.map((candidate) => {
    if (!HEX_SHA256.test(candidate)) {
      return false;
    }
    const given = Buffer.from(candidate, 'hex');
    let matched = false;
    for (const digest of expected) {
      if (given.length === digest.length && timingSafeEqual(given, digest)) {
        matched = true;
      }
    }
    return matched;
  });
}

/** A v1 that could be an HMAC-SHA256 at all: 64 hex digits. */
export const isSha256Hex = (candidate: string): boolean => HEX_SHA256.test(candidate);
