import { randomBytes } from 'node:crypto';

// Ids must be unique, not secret: a random prefix a process, then a counter (no system call a
// request). 24 hex digits, as before.
const PREFIX = randomBytes(4).toString('hex');
let counter = Number.parseInt(randomBytes(4).toString('hex'), 16);
export const nextId = () => `req_${PREFIX}${(counter++).toString(16).padStart(16, '0')}`;

import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { setAnswerHeader } from './headers';

// spec, Errors: `request_id` is also sent as header X-Request-Id (on every response, so a
// support ticket can quote it even for a success). Set before the answer is made (see
// setAnswerHeader): touching a made response's headers makes the Node adapter rebuild it as a
// full Response, the costliest step of a small request.
export function assignRequestId(c: Context<AppEnv>): void {
  const id = nextId();
  c.set('requestId', id);
  setAnswerHeader(c, 'X-Request-Id', id);
}
