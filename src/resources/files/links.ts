import { createHmac, timingSafeEqual } from 'node:crypto';

// decisions.md, Files: `download_url` is a signed link on the web app's origin that works without
// the API key: `{app_url}/files/{id}/download?expires=<unix seconds>&signature=<hmac>`. A link
// made in one hour of the clock expires at the end of the next: it lives one to two hours, and
// every link made within one hour is the same text, so a record's JSON text can be kept for the
// hour (see present.ts).

/** The links of one hour share an expiry. */
export const LINK_WINDOW_MS = 60 * 60 * 1000;

/** Which hour of the clock an instant falls in: the links made in it are the same. */
export const windowOf = (nowMs: number): number => Math.floor(nowMs / LINK_WINDOW_MS);

/** When a link made at `nowMs` expires (Unix seconds): the end of the hour after this one. */
export const linkExpiry = (nowMs: number): number =>
  ((windowOf(nowMs) + 2) * LINK_WINDOW_MS) / 1000;

const mac = (key: string, id: string, expires: number): Buffer =>
  createHmac('sha256', Buffer.from(key, 'hex')).update(`file:${id}:${expires}`).digest();

export function downloadUrl(
  appUrl: string,
  file: { id: string; link_key?: string | undefined },
  nowMs: number,
): string {
  const expires = linkExpiry(nowMs);
  const signature = mac(file.link_key ?? '', file.id, expires).toString('base64url');
  return `${appUrl}/files/${file.id}/download?expires=${expires}&signature=${signature}`;
}

export type LinkCheck = 'valid' | 'forged' | 'expired';

/** Whether a link's `expires` and `signature` were made by svc for this file, and still hold. */
export function checkLink(
  file: { id: string; link_key: string },
  expires: string | undefined,
  signature: string | undefined,
  nowMs: number,
): LinkCheck {
  if (expires === undefined || signature === undefined || !/^\d{1,12}$/.test(expires)) {
    return 'forged';
  }
  const expected = mac(file.link_key, file.id, Number(expires));
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return 'forged';
  }
  return Number(expires) * 1000 <= nowMs ? 'expired' : 'valid';
}
