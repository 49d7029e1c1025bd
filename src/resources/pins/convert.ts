import { ApiError } from '../../platform/errors';
import type { ServiceContext } from '../../platform/service-context';
import { createContact } from '../contacts/api';
import type { Job } from '../jobs/api';
import { createJob } from '../jobs/api';
import { getPin } from './service';

// DESIGN.md, control API: POST /__admin/pins/{id}/convert, the door becomes a job. It is made
// through the contacts and jobs services (so contact.created, job.created and note.created fire
// as from the API), in one transaction with the pin's job_id: all of it or none.

/** The lead source a converted door's job is given (one of the seeded sources). */
const DOOR_KNOCK = 'Door knock';

/** spec, JobCreate: a job's name is up to 200 characters. */
const JOB_NAME_MAX = 200;

export function convertPin(ctx: ServiceContext, id: string): Job {
  const pin = getPin(ctx, id);
  // decisions.md: once; the pin names its job while the job exists, deleted or not (a restore
  // brings it back), so a second conversion would make a second job of one door.
  const was = pin.job_id === null ? undefined : ctx.ws.get('jobs', pin.job_id);
  if (was !== undefined) {
    throw new ApiError('conflict', `the door became job ${was.job_number} already`);
  }
  const address = pin.address;
  if (address === null) {
    // spec, JobCreate: a job needs an address; a pin logged by coordinates alone has none.
    throw new ApiError(
      'conflict',
      "a job needs a street address: PATCH the pin's address first",
      'address',
    );
  }
  const known = pin.homeowner_name !== null || pin.phone !== null || pin.email !== null;
  return ctx.ws.transaction((tx) => {
    const homeowner = known
      ? createContact(ctx, {
          name: pin.homeowner_name || undefined,
          first_name: pin.homeowner_first_name ?? undefined,
          last_name: pin.homeowner_last_name ?? undefined,
          phone: pin.phone ?? undefined,
          email: pin.email ?? undefined,
          address,
          city: pin.city ?? undefined,
          state: pin.state ?? undefined,
          postal_code: pin.postal_code ?? undefined,
          type: 'homeowner',
          assigned_to: pin.created_by_id,
        })
      : undefined;
    const job = createJob(ctx, {
      name: (pin.homeowner_name || address).slice(0, JOB_NAME_MAX),
      address,
      city: pin.city ?? undefined,
      state: pin.state ?? undefined,
      postal_code: pin.postal_code ?? undefined,
      homeowner_id: homeowner?.id,
      // The rep who knocked the door works the job.
      assigned_to: pin.created_by_id,
      lead_source: DOOR_KNOCK,
      notes: pin.notes ?? undefined,
    });
    tx.put('pins', { ...pin, job_id: job.id, pin_type: 'job', updated_at: job.created_at });
    return job;
  });
}
