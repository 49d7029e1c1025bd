import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 text from random bytes (the slight modulo bias is harmless in a 32-character token). */
export function base62(bytes: Uint8Array, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) {
    out += BASE62[(bytes[i % bytes.length] ?? 0) % 62];
  }
  return out;
}

// Random bytes are drawn from the CSPRNG a few kilobytes at a time, as randomUUID draws its own:
// a call of randomBytes for each token cost 17 us of each POST /v1/jobs (its portal link; issue
// 35). Each byte is handed out once, and a token holds none of the pool.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let taken = 0;

function randomPooled(length: number): Uint8Array {
  if (taken + length > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, length));
    taken = 0;
  }
  const bytes = pool.subarray(taken, taken + length);
  taken += length;
  return bytes;
}

export const randomToken = (prefix: string, length = 32): string =>
  prefix + base62(randomPooled(length), length);

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
