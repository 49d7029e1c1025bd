import { createHmac } from 'node:crypto';
import { API_KEY_PREFIX } from '../platform/auth';
import { base62 } from '../platform/ids';

// decisions.md: `svc seed --seed N` derives its keys (and the ids of those keys) from N, so the
// same seed gives byte-identical files and the same keys, which a CI suite can rely on. Only a
// hash is stored; the banner re-derives the keys from the seed recorded in the file.
const digest = (text: string) => createHmac('sha256', 'svc-seed').update(text).digest();

export function seededKey(seed: number, profile: string, index: number, access: string): string {
  return API_KEY_PREFIX + base62(digest(`key:${seed}:${profile}:${index}:${access}`), 32);
}

/** A UUID (version 4 layout) that depends only on `text`. */
export function seededUuid(text: string): string {
  const hex = digest(`uuid:${text}`).toString('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const seededSecret = (seed: number): string => digest(`secret:${seed}`).toString('hex');
