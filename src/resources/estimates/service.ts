import { ApiError } from '../../platform/errors';
import type { DueWork } from '../../platform/family';
import { newId } from '../../platform/ids';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position, TxScope, WorkspaceCollections } from '../../store';
import { addDays, centralDate, centralDayEnd } from '../common/central-time';
import { toCents } from '../common/cents';
import { jobIsLive, requireJob } from '../common/job';
import { type Line, type LineItemInput, toLines } from '../common/line-items';
import type { EstimateTemplate } from '../estimate-templates/api';
import type { Estimate, EstimateCreate, EstimateListQuery, EstimateUpdate } from './schema';
import { fillLine, fillTitle, type SmartValues, smartValues } from './smart-fields';

/** decisions.md, Estimates: the workspace setting for how long an estimate is good for. */
export const VALID_DAYS = 30;

/** spec, POST /estimates: the standard checklist, the Scope of Work when no lines are given. */
export const STANDARD_CHECKLIST: readonly string[] = [
  'Remove existing roofing down to the deck',
  'Inspect decking; replace damaged sheets as needed',
  'Ice & water shield at eaves and valleys',
  'Synthetic underlayment',
  'Drip edge and starter strip',
  'Architectural shingles, installed to manufacturer specifications',
  'New pipe jacks and flashings',
  'Ridge vent and ridge cap',
  'Magnetic sweep and haul-off of all debris',
];

const STANDARD_TITLE = 'Roofing proposal · {homeowner_name} · {address}';

export function getEstimate(ctx: ServiceContext, id: string): Estimate {
  const estimate = ctx.ws.get('estimates', id);
  if (!estimate || !jobIsLive(ctx, estimate.job_id)) {
    throw new ApiError('not_found', 'no such estimate');
  }
  return estimate;
}

function nextNumber(tx: TxScope<WorkspaceCollections>): string {
  const counter = tx.get('counters', 'estimate_number') ?? { id: 'estimate_number', value: 1000 };
  const value = counter.value + 1;
  tx.put('counters', { id: 'estimate_number', value });
  return `E-${value}`;
}

/** A valid-until date as the instant it passes: the end of that day, US Central time. */
function validUntil(ctx: ServiceContext, date: string): string {
  if (date < centralDate(ctx.clock.nowMs())) {
    throw new ApiError('invalid_request', 'valid_until is in the past', 'valid_until');
  }
  return new Date(centralDayEnd(date)).toISOString();
}

/** What an estimate copies: its template's document, or the standard proposal. */
export type EstimateDocument = Pick<
  Estimate,
  'document_type' | 'title' | 'scope' | 'packages' | 'upgrades'
>;

/**
 * spec, POST /estimates: with a template, an exact copy of it with its smart fields filled from
 * the job; without, the standard proposal, its Scope of Work the lines given or the checklist.
 */
export function documentOf(
  template: EstimateTemplate | undefined,
  values: SmartValues,
  lineItems: readonly LineItemInput[] | undefined,
): EstimateDocument {
  if (template) {
    const fillAll = (lines: Line[]) => lines.map((l) => fillLine(l, values));
    return {
      document_type: template.document_type,
      title: fillTitle(template.title, values),
      scope: fillAll(template.line_items),
      packages: template.packages.map((p) => ({ name: p.name, lines: fillAll(p.lines) })),
      upgrades: template.upgrades.map((u) => ({ ...u })),
    };
  }
  return {
    document_type: 'proposal',
    title: fillTitle(STANDARD_TITLE, values),
    scope:
      lineItems === undefined
        ? STANDARD_CHECKLIST.map((name) => ({ name, quantity: 1, unit_price: null, taxable: true }))
        : toLines(lineItems),
    packages: [],
    upgrades: [],
  };
}

/** The total shows to the cent: a price under half a cent would be a total of 0 (spec: > 0). */
function checkPrice(price: number | null | undefined): void {
  if (price !== undefined && price !== null && toCents(price) <= 0n) {
    throw new ApiError('invalid_request', 'price must be at least 0.01', 'price');
  }
}

export function createEstimate(ctx: ServiceContext, input: EstimateCreate): Estimate {
  checkPrice(input.price);
  const job = requireJob(ctx, input.job_id, 'job_id');
  const template =
    input.template_id === undefined
      ? undefined
      : ctx.ws.get('estimate_templates', input.template_id);
  if (input.template_id !== undefined && !template) {
    throw new ApiError(
      'invalid_request',
      'template_id is not an estimate template of this workspace',
      'template_id',
    );
  }
  if (template && input.line_items !== undefined) {
    throw new ApiError(
      'invalid_request',
      'a template brings its own lines; send line_items only without template_id',
      'line_items',
    );
  }
  const document = documentOf(template, smartValues(ctx, job), input.line_items);
  const now = ctx.clock.iso();
  const until =
    input.valid_until === undefined
      ? new Date(centralDayEnd(addDays(centralDate(ctx.clock.nowMs()), VALID_DAYS))).toISOString()
      : validUntil(ctx, input.valid_until);
  return ctx.ws.transaction((tx) =>
    tx.put('estimates', {
      id: newId(),
      object: 'estimate',
      estimate_number: nextNumber(tx),
      ...document,
      title: input.title || document.title,
      status: 'draft',
      signature_status: null,
      selected_tier: null,
      job_id: job.id,
      template_id: input.template_id ?? null,
      price: input.price ?? null,
      valid_until: until,
      sent_at: null,
      first_viewed_at: null,
      last_viewed_at: null,
      signed_at: null,
      view_count: 0,
      signer_name: null,
      created_at: now,
      updated_at: now,
    }),
  );
}

/** spec, States: an estimate out for signature, or signed, is not changed through the API. */
const LOCKED = new Set<Estimate['status']>(['sent', 'viewed', 'signed']);

export function updateEstimate(ctx: ServiceContext, id: string, input: EstimateUpdate): Estimate {
  const estimate = getEstimate(ctx, id);
  checkPrice(input.price);
  if (LOCKED.has(estimate.status)) {
    throw new ApiError(
      'conflict',
      `the estimate is ${estimate.status === 'signed' ? 'signed' : 'out for signature'}; it cannot be changed`,
    );
  }
  const next: Estimate = { ...estimate };
  if (input.title !== undefined) {
    next.title = input.title || null;
  }
  if (input.price !== undefined) {
    next.price = input.price;
  }
  if (input.valid_until !== undefined) {
    next.valid_until = input.valid_until === null ? null : validUntil(ctx, input.valid_until);
  }
  if (JSON.stringify(next) === JSON.stringify(estimate)) {
    return estimate;
  }
  return ctx.ws.transaction((tx) => tx.put('estimates', { ...next, updated_at: ctx.clock.iso() }));
}

export function listEstimates(
  ctx: ServiceContext,
  q: ListQuery & Partial<Omit<EstimateListQuery, 'limit' | 'cursor'>>,
  after: Position | undefined,
) {
  const inTime = timeFilter(q);
  // A blank number filters nothing, as a blank job_number search does.
  const number = q.estimate_number?.trim().toLowerCase() || undefined;
  return ctx.ws.scan('estimates', {
    after,
    on: q.job_id === undefined ? undefined : { field: 'job_id', value: q.job_id },
    limit: q.limit,
    where: (e) =>
      inTime(e) &&
      (q.status === undefined || e.status === q.status) &&
      (q.job_id === undefined || e.job_id === q.job_id) &&
      (number === undefined || e.estimate_number?.toLowerCase() === number) &&
      jobIsLive(ctx, e.job_id),
  });
}

// The homeowner's side (DESIGN.md, control API; the web app's pages call the same): send for
// signature, open it, sign it, decline it. decisions.md, Estimates, gives the moves.

/** `now` is read once by the caller, so a stamp it sets (sent_at, signed_at) equals updated_at. */
function move(
  ctx: ServiceContext,
  estimate: Estimate,
  change: Partial<Estimate>,
  now = ctx.clock.iso(),
): Estimate {
  return ctx.ws.transaction((tx) =>
    tx.put('estimates', { ...estimate, ...change, updated_at: now }),
  );
}

const refuse = (message: string) => new ApiError('conflict', message);

const hasPassed = (ctx: ServiceContext, e: Estimate) =>
  e.valid_until !== null && Date.parse(e.valid_until) < ctx.clock.nowMs();

/** Out for signature: from draft, or again once expired or declined while still valid. */
export function sendEstimate(ctx: ServiceContext, id: string): Estimate {
  const estimate = getEstimate(ctx, id);
  if (estimate.status === 'sent' || estimate.status === 'viewed') {
    return estimate;
  }
  if (estimate.status === 'signed') {
    throw refuse('the estimate is already signed');
  }
  if (hasPassed(ctx, estimate)) {
    throw refuse('valid_until has passed; move it (PATCH) before sending');
  }
  const now = ctx.clock.iso();
  return move(ctx, estimate, { status: 'sent', signature_status: 'pending', sent_at: now }, now);
}

/** The homeowner opens it: every view counts; the first moves a sent estimate to viewed. */
export function viewEstimate(ctx: ServiceContext, id: string): Estimate {
  const estimate = getEstimate(ctx, id);
  if (estimate.sent_at === null) {
    throw refuse('the estimate has not been sent; the homeowner cannot open it');
  }
  const now = ctx.clock.iso();
  return move(
    ctx,
    estimate,
    {
      status: estimate.status === 'sent' ? 'viewed' : estimate.status,
      view_count: estimate.view_count + 1,
      first_viewed_at: estimate.first_viewed_at ?? now,
      last_viewed_at: now,
    },
    now,
  );
}

function requireOut(ctx: ServiceContext, estimate: Estimate, verb: string): void {
  if (estimate.status !== 'sent' && estimate.status !== 'viewed') {
    throw refuse(
      `only an estimate out for signature can be ${verb}; this one is ${estimate.status}`,
    );
  }
  if (hasPassed(ctx, estimate)) {
    throw refuse('valid_until has passed');
  }
}

export function signEstimate(
  ctx: ServiceContext,
  id: string,
  input: { signer_name: string; selected_tier?: string | undefined },
): Estimate {
  const estimate = getEstimate(ctx, id);
  requireOut(ctx, estimate, 'signed');
  const tiers = estimate.packages.map((p) => p.name);
  if (input.selected_tier !== undefined && !tiers.includes(input.selected_tier)) {
    throw new ApiError(
      'invalid_request',
      tiers.length === 0
        ? 'this estimate has no packages to choose from'
        : `selected_tier must be one of ${tiers.join(', ')}`,
      'selected_tier',
    );
  }
  const now = ctx.clock.iso();
  return move(
    ctx,
    estimate,
    {
      status: 'signed',
      signature_status: 'signed',
      signed_at: now,
      signer_name: input.signer_name,
      selected_tier: input.selected_tier ?? null,
    },
    now,
  );
}

export function declineEstimate(ctx: ServiceContext, id: string): Estimate {
  const estimate = getEstimate(ctx, id);
  if (estimate.status === 'declined') {
    return estimate;
  }
  requireOut(ctx, estimate, 'declined');
  return move(ctx, estimate, { status: 'declined', signature_status: 'declined' });
}

const EXPIRES = new Set<Estimate['status']>(['draft', 'sent', 'viewed']);

/** decisions.md: an estimate not signed (nor declined) expires once the clock passes valid_until. */
export const estimateExpiry: DueWork<'estimates'> = {
  coll: 'estimates',
  name: 'expire-estimate',
  at: (e) =>
    EXPIRES.has(e.status) && e.valid_until !== null ? Date.parse(e.valid_until) + 1 : undefined,
  run(ws, e, now) {
    ws.put('estimates', {
      ...e,
      status: 'expired',
      signature_status: e.signature_status === 'pending' ? 'expired' : e.signature_status,
      updated_at: now,
    });
  },
};
