import type { z } from '@hono/zod-openapi';
import { defineRecords, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { findJob } from '../common/job';
import { type Pin, PinSchema } from './schema';

export const presentPin = (ctx: ServiceContext, pin: Pin): z.infer<typeof PinSchema> =>
  shape(PinSchema, pin, {
    object: 'pin',
    // decisions.md: while the job the door became is deleted (recoverable) its id is not shown,
    // as a job shows no deleted contact; a restore brings it back.
    job_id: pin.job_id !== null && findJob(ctx, pin.job_id) ? pin.job_id : null,
    // Users are never removed; a name that cannot be found shows as none.
    created_by_name: ctx.ws.get('users', pin.created_by_id)?.name ?? '',
    map_url: `${ctx.appUrl}/map?pin=${pin.id}`,
    url: `${ctx.appUrl}/pins/${pin.id}`,
  });

/** Pins as the API shows them: a pin stands on its own, seen until it is deleted. */
export const pinRecords = defineRecords({
  coll: 'pins',
  schema: PinSchema,
  present: presentPin,
  visible: () => true,
  reads: ['users', 'jobs'],
});
