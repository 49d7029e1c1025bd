import type { AnyRecord, Body, Family, Occurrence } from '../platform/family';
import type { ServiceContext } from '../platform/service-context';
import type { Rec } from '../store';

// spec, Events: "The event is raised from the data change itself". A committed change is the
// record before and after; the family's rule says which events that is, from the record as the
// API saw it and sees it (a record out of its sight, deleted or on a deleted job, is none). So the
// API, the app-side actions of /__admin, the clock and the seeder all raise the same events.

/** The record as the API shows it, or undefined where the API does not see it. */
export function seen(ctx: ServiceContext, family: Family, rec: Rec | undefined): Body | undefined {
  const records = family.records;
  // A change of a family's collection, or a scan of it, holds one of its own records.
  const own = rec as AnyRecord | undefined;
  return own !== undefined && records?.visible(ctx, own)
    ? (records.present(ctx, own) as Body)
    : undefined;
}

export function occurrencesOf(
  ctx: ServiceContext,
  family: Family,
  before: Rec | undefined,
  after: Rec | undefined,
): Occurrence[] {
  return family.events?.derive(seen(ctx, family, before), seen(ctx, family, after)) ?? [];
}
