import { dirname } from 'node:path';
import { EVENTS } from '../../events/catalogue';
import {
  checkControlReach,
  hasControlApi,
  newSession,
  normalizeBase,
  runSteps,
  type Step,
  type StepRecord,
  UsageError,
} from '../scenario';
import { asRecord, sendJson } from '../scenario/http';
import { clockPath, StepFailure } from '../scenario/session';
import { deliveriesSince, type SentDelivery, subscriptionsFor } from './deliveries';
import { checkWorkspace, credentials, type TriggerKeys, TriggerUsage } from './keys';
import {
  applyOverrides,
  ignoredOverrides,
  loadRecipe,
  type Override,
  overrideIndex,
  type Recipe,
  RecipeProblem,
  recipeFile,
} from './recipe';

// svc trigger EVENT: runs the event's recipe through the scenario engine against a running svc,
// then reports what went out for that event in that workspace.

export { type Override, parseOverride, recipeFile } from './recipe';

export interface TriggerOptions {
  event: string;
  /** A svc: http://HOST:PORT (or its base URL, .../v1). */
  server: string;
  key?: string;
  workspace?: string;
  overrides?: readonly Override[];
  /** How long to wait for deliveries to be made and tried (default 3 s). */
  waitMs?: number;
  /** The recipe file (default fixtures/triggers/<event>.yaml of the package). */
  recipe?: string;
  out?: (line: string) => void;
  /** Warnings (an override the server ignored); default: `out`. */
  warn?: (line: string) => void;
}

export interface TriggerResult {
  workspaceId: string;
  steps: StepRecord[];
  /** The step that failed: nothing after it ran, and no deliveries are looked for. */
  failure: StepFailure | undefined;
  subscribed: number;
  deliveries: SentDelivery[];
  /** `--override` fields the record did not take (`x is not a field of the job: ...`). */
  warnings: string[];
}

export { TriggerUsage } from './keys';

export async function trigger(options: TriggerOptions): Promise<TriggerResult> {
  try {
    return await triggerOnce(options);
  } catch (err) {
    // the scenario engine's usage errors (a bad --server, a server that is down, a bad key)
    throw err instanceof UsageError ? new TriggerUsage(err.message) : err;
  }
}

async function triggerOnce(options: TriggerOptions): Promise<TriggerResult> {
  const out = options.out ?? (() => {});
  const warn = options.warn ?? out;
  if (!EVENTS.some((e) => e.event === options.event)) {
    throw new TriggerUsage(
      `unknown event ${options.event}; the events are: ${EVENTS.map((e) => e.event).join(', ')}`,
    );
  }
  const { base, origin } = normalizeBase(options.server, '--server');
  if (!(await hasControlApi(origin, options.server))) {
    throw new TriggerUsage(
      `${origin} is not a svc (no control API at ${origin}/__admin/clock); svc trigger needs one`,
    );
  }
  let steps: Step[];
  let recipe: Recipe;
  try {
    recipe = await loadRecipe(options.event, options.recipe ?? recipeFile(options.event));
    steps = applyOverrides(recipe, options.overrides ?? []);
  } catch (err) {
    throw err instanceof RecipeProblem ? new TriggerUsage(err.message) : err;
  }
  const keys = await credentials(base, origin, options);
  try {
    // a control token of another workspace than --key's is told before anything is made
    await checkControlReach(origin, keys.workspaceId);
    if (keys.madeKeyId !== undefined) {
      // as with --key: a workspace whose plan is off (402) is told before anything is made
      await checkWorkspace(base, keys);
    }
    return await runRecipe(options, recipe, steps, base, origin, keys, out, warn);
  } finally {
    if (keys.madeKeyId !== undefined) {
      // the key made for this trigger goes when it is done
      await sendJson(
        'DELETE',
        `${origin}/__admin/keys/${encodeURIComponent(keys.madeKeyId)}`,
      ).catch(() => undefined);
    }
  }
}

async function runRecipe(
  options: TriggerOptions,
  recipe: Recipe,
  steps: Step[],
  base: string,
  origin: string,
  keys: TriggerKeys,
  out: (line: string) => void,
  warn: (line: string) => void,
): Promise<TriggerResult> {
  // the recipe's name starts with the event already: `svc trigger invoice.paid: a job, ...`
  const title = recipe.name.startsWith(`${options.event}:`)
    ? recipe.name
    : `${options.event}: ${recipe.name}`;
  out(`svc trigger ${title}`);
  out(`  server    ${base} (workspace ${keys.workspaceId})`);
  const since = await clockNow(origin, keys.workspaceId);
  const session = newSession(
    { base, origin, control: true },
    keys,
    undefined,
    dirname(recipe.file),
  );
  const { records, failure } = await stepsRun(steps, session, out);
  const result: TriggerResult = {
    workspaceId: keys.workspaceId,
    steps: records,
    failure,
    subscribed: 0,
    deliveries: [],
    warnings: [],
  };
  if (failure) {
    return result;
  }
  for (const line of overrideWarnings(options, recipe, steps, records)) {
    result.warnings.push(line);
    warn(line);
  }
  const subscriptions = await subscriptionsFor(origin, keys.workspaceId, options.event);
  result.subscribed = subscriptions.length;
  if (subscriptions.length === 0) {
    out(`no subscription in this workspace receives ${options.event}`);
    return result;
  }
  result.deliveries = await deliveriesSince(
    origin,
    subscriptions,
    options.event,
    since,
    options.waitMs ?? 3000,
  );
  printDeliveries(options.event, subscriptions, result.deliveries, out);
  return result;
}

/** Runs the recipe's steps, printing each; a step that fails ends the run, and is its failure. */
async function stepsRun(
  steps: Step[],
  session: ReturnType<typeof newSession>,
  out: (line: string) => void,
): Promise<{ records: StepRecord[]; failure: StepFailure | undefined }> {
  const records: StepRecord[] = [];
  try {
    await runSteps(steps, session, {
      onStep: (r) => {
        records.push(r);
        out(`  ${describeStep(r)}`);
      },
    });
  } catch (err) {
    if (!(err instanceof StepFailure)) {
      throw err;
    }
    out(`  FAILED ${err.message}`);
    return { records, failure: err };
  }
  return { records, failure: undefined };
}

/** decisions.md: an --override the server ignored (not a field of what the marked step made). */
function overrideWarnings(
  options: TriggerOptions,
  recipe: Recipe,
  steps: Step[],
  records: StepRecord[],
): string[] {
  const marked = records[overrideIndex(steps)];
  if (!marked || (options.overrides ?? []).length === 0) {
    return [];
  }
  const made = asRecord(marked.body);
  const what = typeof made.object === 'string' ? made.object : 'record';
  const original = recipe.steps[overrideIndex(steps)];
  return ignoredOverrides(marked.body, options.overrides ?? [], original).map(
    (field) => `warning: ${field} is not a field of the ${what}: the server ignored it`,
  );
}

function printDeliveries(
  event: string,
  subscriptions: Awaited<ReturnType<typeof subscriptionsFor>>,
  deliveries: TriggerResult['deliveries'],
  out: (line: string) => void,
): void {
  out(`deliveries of ${event}:`);
  for (const d of deliveries) {
    const status =
      d.status_code === null ? (d.error ?? 'not tried yet') : `answered ${d.status_code}`;
    out(`  ${d.event_id} to ${d.webhook_id} ${d.target_url}: ${d.state}, ${status}`);
  }
  for (const s of subscriptions.filter((s) => !deliveries.some((d) => d.webhook_id === s.id))) {
    out(
      `  none to ${s.id} ${s.target_url}${s.disabled ? ' (switched off)' : ' (its filters did not match?)'}`,
    );
  }
}

/** `POST /jobs -> 201 job 6f1c...` */
function describeStep(r: StepRecord): string {
  const body = asRecord(r.body);
  const made = [body.object, body.id].filter((v) => typeof v === 'string').join(' ');
  const call = r.method ? `${r.method} ${r.path} -> ${r.status}` : r.label;
  return made === '' ? call : `${call} ${made}`;
}

/** The workspace's time (deliveries carry it), or the server's when the workspace is not known. */
async function clockNow(origin: string, workspaceId: string | undefined): Promise<string> {
  const answer = await sendJson('GET', `${origin}${clockPath({ keys: { workspaceId } })}`);
  const now = asRecord(answer.body).now;
  return typeof now === 'string' ? now : new Date().toISOString();
}
