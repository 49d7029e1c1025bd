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

export const randomToken = (prefix: string, length = 32): string =>
  prefix + base62(randomBytes(length), length);

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
