import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { Seal } from '../platform/idempotency';

// spec, Endpoints: Idempotency-Key applies on every POST, and Errors rule 1 advises retrying a
// dropped connection with one; the token endpoint's answer is a token, so what the data file keeps
// of it must be no credential (decisions.md, OAuth).

const SEALED = 'aes-256-gcm:';

/**
 * A token answer kept for a replay, sealed with AES-256-GCM under a key made from the client's
 * secret and the Idempotency-Key, neither of which the data file holds (the secret is kept only
 * hashed). Only the app that made the request, sending the same key again, can open it.
 */
export function sealWith(clientSecret: string, idempotencyKey: string): Seal {
  const key = createHmac('sha256', clientSecret)
    .update(`svc oauth idempotency\u0000${idempotencyKey}`)
    .digest();
  return {
    close(body) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const text = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), text].map((b) => b.toString('base64url'));
      return SEALED + parts.join('.');
    },
    open(kept) {
      const [iv, tag, text] = kept.slice(SEALED.length).split('.');
      if (!kept.startsWith(SEALED) || !iv || !tag || text === undefined) {
        throw new Error('not a sealed answer');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const body = Buffer.concat([
        decipher.update(Buffer.from(text, 'base64url')),
        decipher.final(),
      ]);
      return body.toString('utf8');
    },
  };
}

/**
 * What makes two requests the same: the endpoint and its parameters by what they say, whether
 * sent form-encoded or as JSON, in any order (as the API compares a JSON body by its content).
 * The client's credentials are not among them: the key is the app's own, checked before, and a
 * retry may send them as HTTP Basic or in the body (RFC 6749 §2.3.1, two ways of one request).
 */
export function requestPrint(path: string, fields: Record<string, string>): string {
  const sorted = Object.entries(fields)
    .filter(([name]) => name !== 'client_id' && name !== 'client_secret')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(`POST ${path}\n`).update(JSON.stringify(sorted)).digest('hex');
}
