import { ApiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position } from '../../store';
import { centralDate } from '../common/central-time';
import type { Geography } from '../common/geo';
import { type AreaInput, areaOf } from './area';
import type { PropertyQuery, StormList, StormListQuery } from './schema';

// Storm lists are read only through the API (spec, Scope rule 4); the app builds them. Asked for,
// a list is `building`; BUILD_SECONDS later on the clock it finishes, in one transaction: ready,
// partial or failed, with its properties (decisions: storm lists).

/** decisions: a build takes this long on the clock. */
export const BUILD_SECONDS = 30;
export const DEFAULT_CAP = 1000;
export const MAX_CAP = 10_000;
export const DEFAULT_DEDUPE_DAYS = 30;
/** decisions: a list is about a storm: its window spans at most 31 days (a month of storms). */
export const MAX_WINDOW_DAYS = 31;
const DAY_MS = 86_400_000;

export function getStormList(ctx: ServiceContext, id: string): StormList {
  const list = ctx.ws.get('storm_lists', id);
  if (!list) {
    throw new ApiError('not_found', 'no such storm list');
  }
  return list;
}

export function listStormLists(
  ctx: ServiceContext,
  q: ListQuery & Partial<Pick<StormListQuery, 'status'>>,
  after: Position | undefined,
) {
  const inTime = timeFilter(q);
  return ctx.ws.scan('storm_lists', {
    after,
    limit: q.limit,
    where: (l) => inTime(l) && (q.status === undefined || l.status === q.status),
  });
}

export function listProperties(
  ctx: ServiceContext,
  listId: string,
  q: ListQuery & Partial<Pick<PropertyQuery, 'mailable' | 'residential'>>,
  after: Position | undefined,
) {
  getStormList(ctx, listId);
  const inTime = timeFilter(q);
  const yes = (wanted: 'true' | 'false' | undefined, value: boolean) =>
    wanted === undefined || value === (wanted === 'true');
  return ctx.ws.scan('storm_list_properties', {
    after,
    on: { field: 'storm_list_id', value: listId },
    limit: q.limit,
    where: (p) =>
      p.storm_list_id === listId &&
      yes(q.mailable, p.mail_deliverable) &&
      yes(q.residential, p.is_residential) &&
      inTime(p),
  });
}

export interface BuildInput {
  name: string;
  window_from: string;
  window_to: string;
  min_size_in: number;
  property_cap?: number | undefined;
  dedupe_days?: number | undefined;
  source?: 'auto' | 'manual' | undefined;
  area?: AreaInput | undefined;
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The window's rules: in order, at most MAX_WINDOW_DAYS days, never after today (US Central). */
function checkWindow(ctx: ServiceContext, input: BuildInput): void {
  const today = centralDate(ctx.clock.nowMs());
  if (input.window_from > today) {
    throw new ApiError('invalid_request', 'window_from is in the future', 'window_from');
  }
  if (input.window_to > today) {
    throw new ApiError('invalid_request', 'window_to is in the future', 'window_to');
  }
  if (input.window_to < input.window_from) {
    throw new ApiError('invalid_request', 'window_to is before window_from', 'window_to');
  }
  if (daysBetween(input.window_from, input.window_to) >= MAX_WINDOW_DAYS) {
    throw new ApiError(
      'invalid_request',
      `the window spans at most ${MAX_WINDOW_DAYS} days`,
      'window_from',
    );
  }
}

/**
 * Where the workspace works: its market's centre (every generated workspace has one), else the
 * centre of its jobs' ZIPs; with neither, the build must name an area.
 */
function homeOf(ctx: ServiceContext, geo: Geography): { latitude: number; longitude: number } {
  const market = (ctx.workspace as { market?: { latitude?: unknown; longitude?: unknown } }).market;
  if (typeof market?.latitude === 'number' && typeof market.longitude === 'number') {
    return { latitude: market.latitude, longitude: market.longitude };
  }
  const spots = [...ctx.ws.values('jobs')].flatMap((j) => {
    const zip = j.deleted_at === null && j.postal_code ? geo.zip(j.postal_code) : undefined;
    return zip ? [zip] : [];
  });
  if (spots.length === 0) {
    throw new ApiError(
      'invalid_request',
      'the workspace has no market and no jobs to centre on: send an area',
      'area',
    );
  }
  const mean = (f: (z: (typeof spots)[number]) => number) =>
    spots.reduce((sum, z) => sum + f(z), 0) / spots.length;
  return { latitude: mean((z) => z.latitude), longitude: mean((z) => z.longitude) };
}

/** DESIGN.md, control API: a list is asked for as the app asks; it answers `building`. */
export function requestBuild(ctx: ServiceContext, input: BuildInput, geo: Geography): StormList {
  checkWindow(ctx, input);
  const area = areaOf(input.area, geo, () => homeOf(ctx, geo));
  const now = ctx.clock.nowMs();
  const at = new Date(now).toISOString();
  const list: StormList = {
    id: newId(),
    object: 'storm_list',
    name: input.name,
    status: 'building',
    source: input.source ?? 'manual',
    window_from: input.window_from,
    window_to: input.window_to,
    min_size_in: input.min_size_in,
    area_kind: area.kind,
    territory_id: null,
    clipped_area_sq_mi: 0,
    property_cap: input.property_cap ?? DEFAULT_CAP,
    property_count: 0,
    skipped_duplicates: 0,
    dedupe_days: input.dedupe_days ?? DEFAULT_DEDUPE_DAYS,
    credits_spent: 0,
    total_available: 0,
    storm_date: null,
    built_at: null,
    created_at: at,
    updated_at: at,
    area,
    build_due_at: new Date(now + BUILD_SECONDS * 1000).toISOString(),
  };
  return ctx.ws.transaction((tx) => tx.put('storm_lists', list));
}
