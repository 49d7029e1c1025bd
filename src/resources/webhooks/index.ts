import type { Family } from '../../platform/family';
import { webhookRoutes } from './routes';

export { type AttemptResult, afterAttempt } from './health';
export { validSecrets, type Webhook } from './records';

export const webhooks: Family = { name: 'webhooks', routes: webhookRoutes };
