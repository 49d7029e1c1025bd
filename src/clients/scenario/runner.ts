import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { Interrupted } from './http';
import { findFiles, type Loaded, loadFile } from './load';
import { type Receiver, startReceiver } from './receiver';
import type { Scenario } from './schema';
import { type Session, SkipScenario, StepFailure } from './session';
import { runSteps } from './steps';
import { openTarget, type Target, UsageError } from './target';
import { CLEANUP_MS, tearDown } from './teardown';

export interface RunOptions {
  paths: string[];
  baseUrl?: string;
  key?: string;
  readKey?: string;
  controlToken?: string;
  filter?: string;
  bail?: boolean;
  onResult?: (r: ScenarioResult) => void;
}

export interface ScenarioResult {
  name: string;
  file: string;
  status: 'passed' | 'failed' | 'skipped';
  reason: string | null;
  duration_ms: number;
  /** The step that failed: its number (from 1) and label. */
  step: { number: number; label: string } | null;
}

export interface Report {
  results: ScenarioResult[];
  passed: number;
  failed: number;
  skipped: number;
}

export const DEFAULT_PATH = 'scenarios';

/** Runs the scenarios under `paths`; MissingPath and UsageError are the caller's exit 2. */
export async function runScenarios(options: RunOptions): Promise<Report> {
  const files = await findFiles(options.paths.length > 0 ? options.paths : [DEFAULT_PATH]);
  const loaded = (await Promise.all(files.map(loadFile))).filter((l) =>
    selected(l, options.filter),
  );
  if (loaded.length === 0) {
    // a CI gate that ran nothing must not pass
    throw new UsageError(
      files.length === 0
        ? `no scenario matched: no .yaml, .yml or .json file under ${(options.paths.length > 0 ? options.paths : [DEFAULT_PATH]).join(', ')}`
        : `no scenario matched --filter ${JSON.stringify(options.filter)} (of ${files.length} files)`,
    );
  }
  const results: ScenarioResult[] = [];
  const target = await openTarget(options);
  // Ctrl-C (SIGINT, SIGTERM): the running step stops (its waits and requests are aborted), the
  // scenario's teardown runs and its subscriptions go (CLEANUP_MS in all), the temporary store of
  // an in-process run goes, then exit 130. A second signal, or the bound passed: at once.
  const stop = new AbortController();
  const now = () => {
    target.discard?.();
    process.exit(130);
  };
  const interrupted = () => {
    if (stop.signal.aborted) {
      now();
    }
    stop.abort();
    setTimeout(now, CLEANUP_MS + 1000).unref();
  };
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  let receiver: Receiver | undefined;
  try {
    receiver = await startReceiver();
    for (const entry of loaded) {
      if (stop.signal.aborted) {
        break;
      }
      const result = await runOne(entry, target, receiver, options.readKey, stop.signal);
      results.push(result);
      options.onResult?.(result);
      if (options.bail && result.status === 'failed') {
        break;
      }
    }
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await receiver?.close();
    await target.close();
  }
  if (stop.signal.aborted) {
    now();
  }
  const count = (status: ScenarioResult['status']) =>
    results.filter((r) => r.status === status).length;
  return { results, passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

/** --filter: the name contains the text, any case (a file that would not load: its path). */
function selected(entry: Loaded, filter: string | undefined): boolean {
  if (filter === undefined || filter === '') {
    return true;
  }
  const name = entry.ok ? entry.scenario.name : entry.name;
  return name.toLowerCase().includes(filter.toLowerCase());
}

async function runOne(
  entry: Loaded,
  target: Target,
  receiver: Receiver,
  readKey: string | undefined,
  stop: AbortSignal,
): Promise<ScenarioResult> {
  const started = performance.now();
  const done = (
    status: ScenarioResult['status'],
    reason: string | null,
    step: ScenarioResult['step'] = null,
  ): ScenarioResult => ({
    name: entry.ok ? entry.scenario.name : entry.name,
    file: entry.file,
    status,
    reason,
    duration_ms: Math.round(performance.now() - started),
    step,
  });
  if (!entry.ok) {
    return done('failed', entry.error);
  }
  const scenario = entry.scenario;
  const skip = skipReason(scenario, target, readKey);
  if (skip) {
    return done('skipped', skip);
  }
  let session: Session;
  try {
    const keys = await target.keysFor(scenario.name, scenario.profile);
    session = newSession(target, keys, receiver, dirname(entry.source));
  } catch (err) {
    return done('failed', `setting up its workspace failed: ${(err as Error).message}`);
  }
  session.signal = stop;
  const outcome = await stepsOutcome(scenario, session, done);
  const result = await tearDown(scenario, session, target, stop, outcome);
  return { ...result, duration_ms: Math.round(performance.now() - started) };
}

type Done = (
  status: ScenarioResult['status'],
  reason: string | null,
  step?: ScenarioResult['step'],
) => ScenarioResult;

/** What came of the scenario's steps. */
async function stepsOutcome(
  scenario: Scenario,
  session: Session,
  done: Done,
): Promise<ScenarioResult> {
  try {
    await runSteps(scenario.steps, session);
    return done('passed', null);
  } catch (err) {
    if (err instanceof StepFailure) {
      return done('failed', err.message, { number: err.step, label: err.label });
    }
    if (err instanceof SkipScenario) {
      return done('skipped', err.message);
    }
    if (err instanceof Interrupted) {
      return done('failed', 'interrupted (Ctrl-C): its teardown ran, then the run stopped');
    }
    return done('failed', (err as Error).message);
  }
}

/** FORMAT.md: clock or admin steps need svc; `key: read` needs a read key. */
function skipReason(
  scenario: Scenario,
  target: Target,
  readKey: string | undefined,
): string | undefined {
  const all = [...scenario.steps, ...(scenario.teardown ?? [])];
  const needsControl = all.some((s) => s.clock || s.admin);
  if (needsControl && !target.control) {
    return `it has clock or admin steps, and ${target.origin} has no svc control API`;
  }
  const needsRead = all.some((s) => s.request?.key === 'read');
  if (needsRead && !target.isolated && readKey === undefined) {
    return 'a step uses key: read, and no read key was given (--read-key)';
  }
  return undefined;
}

/** A session for one run of steps; `run_id` is new each time (FORMAT.md, built-in names). */
export function newSession(
  target: Pick<Target, 'base' | 'origin' | 'control'>,
  keys: Session['keys'],
  receiver: Receiver | undefined,
  dir: string,
): Session {
  const inbox = receiver?.open();
  const vars = new Map<string, unknown>([['run_id', newRunId()]]);
  if (keys.workspaceId !== undefined) {
    vars.set('workspace_id', keys.workspaceId);
  }
  if (inbox) {
    vars.set('receiver_url', inbox.url);
  }
  return {
    base: target.base,
    origin: target.origin,
    control: target.control,
    keys,
    vars,
    inbox,
    dir,
    webhooks: [],
  };
}

function newRunId(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}
