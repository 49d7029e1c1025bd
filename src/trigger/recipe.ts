import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadFile, type Step } from '../scenario';

// fixtures/triggers/<event>.yaml: a scenario file whose steps make the data change that raises
// the event. Read from the installed package, so `npx svc trigger` works from any folder.

export interface Recipe {
  file: string;
  name: string;
  steps: Step[];
}

export class RecipeProblem extends Error {}

/** The folder holding package.json: two up from src/trigger, one up from dist/. */
export function packageRoot(): string {
  // In the CommonJS bundle (and under vitest) __dirname is this file's folder; elsewhere, the
  // working directory is the best guess left.
  let dir = typeof __dirname === 'string' ? __dirname : process.cwd();
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'fixtures'))) {
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) {
      return process.cwd();
    }
    dir = up;
  }
}

export function recipeFile(event: string, root = packageRoot()): string {
  return join(root, 'fixtures', 'triggers', `${event}.yaml`);
}

export async function loadRecipe(event: string, file = recipeFile(event)): Promise<Recipe> {
  if (!existsSync(file)) {
    throw new RecipeProblem(`no recipe for ${event}: ${file} is missing`);
  }
  const loaded = await loadFile(file);
  if (!loaded.ok) {
    throw new RecipeProblem(`the recipe for ${event} is not a valid scenario: ${loaded.error}`);
  }
  return { file, name: loaded.scenario.name, steps: loaded.scenario.steps };
}

export interface Override {
  field: string;
  value: unknown;
}

/** `field=value`: dotted fields set nested ones; a value that parses as JSON is that JSON. */
export function parseOverride(text: string): Override {
  const eq = text.indexOf('=');
  const field = eq < 0 ? '' : text.slice(0, eq).trim();
  if (field === '' || field.split('.').some((part) => part === '')) {
    throw new RecipeProblem(
      `--override takes field=value (a dotted field sets a nested one), not ${text}`,
    );
  }
  const raw = text.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // text, as given
  }
  return { field, value };
}

/** The recipe's steps with the overrides merged into the body of the step marked override. */
export function applyOverrides(recipe: Recipe, overrides: readonly Override[]): Step[] {
  if (overrides.length === 0) {
    return recipe.steps;
  }
  const index = recipe.steps.findIndex(
    (s) => s.override === true || s.request?.override === true || s.admin?.override === true,
  );
  const step = recipe.steps[index];
  const call = step?.request ?? step?.admin;
  if (!step || !call) {
    throw new RecipeProblem(
      `the recipe ${recipe.file} marks no request or admin step override: true`,
    );
  }
  const multipart = step.request?.multipart;
  if (step.request && multipart) {
    // an upload has no JSON body: its form fields are what reach the record (FORMAT-CHANGES 2)
    const fields = { ...(multipart.fields ?? {}) };
    for (const { field, value } of overrides) {
      fields[field] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    const merged: Step = {
      ...step,
      request: { ...step.request, multipart: { ...multipart, fields } },
    };
    return recipe.steps.map((s, i) => (i === index ? merged : s));
  }
  const body = structuredClone(isObject(call.body) ? call.body : {});
  for (const { field, value } of overrides) {
    setPath(body, field.split('.'), value);
  }
  const merged: Step = step.request
    ? { ...step, request: { ...step.request, body } }
    : { ...step, admin: { ...(step.admin ?? call), body } as Step['admin'] };
  return recipe.steps.map((s, i) => (i === index ? merged : s));
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined) {
    return;
  }
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const next = isObject(target[head]) ? target[head] : {};
  target[head] = next;
  setPath(next, rest, value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
