import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { type Report, runScenarios } from '../../src/clients/scenario';
import { EVENTS } from '../../src/events/catalogue';

// Issue 18, "Scenarios shipped": `npm test` runs every scenario of scenarios/ against svc (in-process,
// a workspace each), and every trigger recipe of fixtures/triggers/ is a scenario that raises its event.

const SCENARIOS = 'scenarios';
const RECIPES = join('fixtures', 'triggers');

/** spec, "States and transitions": the table has 19 rows, one file each, numbered as the rows. */
const TRANSITION_ROWS = 19;

interface Step {
  request?: unknown;
  admin?: unknown;
  webhook?: { event: string | string[]; filters?: Record<string, unknown> };
  delivery?: unknown;
  clock?: unknown;
  override?: boolean;
}

interface ScenarioFile {
  name: string;
  profile?: string;
  steps: Step[];
}

const yamlFiles = async (dir: string): Promise<string[]> =>
  (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();

const readScenario = async (path: string): Promise<ScenarioFile> =>
  parse(await readFile(path, 'utf8')) as ScenarioFile;

/** Every result that is not a pass, with its reason, so an assertion message shows what went wrong. */
function notPassed(report: Report): string[] {
  return report.results
    .filter((r) => r.status !== 'passed')
    .map((r) => `${r.status}: ${r.file} (${r.name})\n    ${r.reason ?? ''}`);
}

const eventNames = EVENTS.map((e) => e.event).sort();

describe('shipped scenarios', () => {
  test('every shipped scenario passes against svc, and none is skipped', async () => {
    const report = await runScenarios({ paths: [SCENARIOS] });
    const problems = notPassed(report);
    expect(problems, problems.join('\n')).toEqual([]);
    expect(report.failed + report.skipped).toBe(0);
    const files = (
      await Promise.all(
        ['transitions', 'events', 'platform'].map(async (d) => yamlFiles(join(SCENARIOS, d))),
      )
    ).flat();
    expect(report.passed).toBe(files.length);
  }, 180_000);

  test('scenarios/transitions has one scenario per row of the spec table, numbered as the rows', async () => {
    const files = await yamlFiles(join(SCENARIOS, 'transitions'));
    expect(files.map((f) => f.slice(0, 3))).toEqual(
      Array.from({ length: TRANSITION_ROWS }, (_, i) => `${String(i + 1).padStart(2, '0')}-`),
    );
  });

  test('scenarios/events has one scenario per catalogue event, delivered to a subscription of that event', async () => {
    const files = await yamlFiles(join(SCENARIOS, 'events'));
    expect(files).toEqual(eventNames.map((e) => `${e}.yaml`));
    for (const event of eventNames) {
      const { steps } = await readScenario(join(SCENARIOS, 'events', `${event}.yaml`));
      const hooks = steps.filter((s) => s.webhook).map((s) => s.webhook?.event);
      expect(hooks, event).toEqual([event]);
      const waited = steps.filter((s) => s.delivery && !(s.delivery as { none?: boolean }).none);
      expect(waited.length, `${event} waits for a delivery`).toBeGreaterThan(0);
    }
  });

  test('the scenario of an event that takes filters subscribes with one, and checks the left-out change never arrives', async () => {
    const filtered = EVENTS.filter((e) => e.filters.length > 0);
    expect(filtered.length).toBeGreaterThan(0);
    for (const def of filtered) {
      const { steps } = await readScenario(join(SCENARIOS, 'events', `${def.event}.yaml`));
      const filters = steps.find((s) => s.webhook)?.webhook?.filters ?? {};
      const keys = def.filters.map((f) => f.key);
      expect(Object.keys(filters).length, `${def.event} subscribes with a filter`).toBe(1);
      expect(keys, def.event).toContain(Object.keys(filters)[0]);
      const none = steps.filter((s) => (s.delivery as { none?: boolean } | undefined)?.none);
      expect(none.length, `${def.event} checks nothing else arrives`).toBeGreaterThan(0);
    }
  });
});

describe('trigger recipes', () => {
  const made: string[] = [];
  afterAll(async () => {
    await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  test('fixtures/triggers holds exactly one recipe per catalogue event', async () => {
    expect(await yamlFiles(RECIPES)).toEqual(eventNames.map((e) => `${e}.yaml`));
    expect((await readdir(RECIPES)).filter((f) => !f.endsWith('.yaml'))).toEqual([]);
  });

  test('a recipe marks exactly one request or admin step override: true, and has no webhook or delivery step', async () => {
    for (const event of eventNames) {
      const { steps } = await readScenario(join(RECIPES, `${event}.yaml`));
      const marked = steps.filter((s) => s.override === true);
      expect(marked.length, `${event}: steps marked override`).toBe(1);
      expect(Boolean(marked[0]?.request ?? marked[0]?.admin), event).toBe(true);
      expect(
        steps.filter((s) => s.webhook || s.delivery),
        `${event}: svc trigger prints deliveries itself`,
      ).toEqual([]);
    }
  });

  test('every recipe runs as a scenario and raises its event, signed, in a workspace with demo data', async () => {
    // Each recipe between a subscription to its event and a wait for that event's delivery (which
    // the runner verifies as an integrator must); demo data shows it needs no record it did not make.
    const dir = await mkdtemp(join(tmpdir(), 'svc-recipes-'));
    made.push(dir);
    for (const event of eventNames) {
      const recipe = await readScenario(join(RECIPES, `${event}.yaml`));
      const wrapped: ScenarioFile = {
        name: recipe.name,
        profile: 'demo',
        steps: [
          { webhook: { event } },
          ...recipe.steps,
          { delivery: { event, within_ms: 5000 } } as Step,
        ],
      };
      await writeFile(join(dir, `${event}.yaml`), stringify(wrapped));
    }
    const report = await runScenarios({ paths: [dir] });
    const problems = notPassed(report);
    expect(problems, problems.join('\n')).toEqual([]);
    expect(report.passed).toBe(eventNames.length);
  }, 180_000);
});
