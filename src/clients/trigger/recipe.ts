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

/** The folder holding package.json: the first one up from this file (or dist/) with fixtures. */
export function packageRoot(): string {
  // In the built CLI, dist/svc.cjs (and under vitest), __dirname is this file's folder;
  // elsewhere, the working directory is the best guess left.
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
    throw new RecipeProblem(
      `the recipe for ${event} is not a valid scenario: ${loaded.file}: ${loaded.error}`,
    );
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
  const index = overrideIndex(recipe.steps);
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
    setPath(body, field.split('.'), value, field);
  }
  const merged: Step = step.request
    ? { ...step, request: { ...step.request, body } }
    : { ...step, admin: { ...(step.admin ?? call), body } as Step['admin'] };
  return recipe.steps.map((s, i) => (i === index ? merged : s));
}

/**
 * Sets a dotted path; a numeric segment indexes a list the recipe's body has
 * (`line_items.0.unit_price`). A numeric segment where the recipe has no list, or past its end,
 * is a RecipeProblem naming the whole `field`, before anything is sent.
 */
function setPath(
  target: Record<string, unknown> | unknown[],
  path: string[],
  value: unknown,
  field: string,
  parent = '',
): void {
  const [head, ...rest] = path;
  if (head === undefined) {
    return;
  }
  const numeric = /^\d+$/.test(head);
  const where = parent === '' ? 'body' : parent;
  if (numeric && !Array.isArray(target)) {
    throw new RecipeProblem(
      `--override ${field}: the recipe's ${where} is not a list, so it has no item ${head}`,
    );
  }
  const index = Array.isArray(target) && numeric ? Number(head) : undefined;
  const container = target as Record<string, unknown> & unknown[];
  const at = index ?? head;
  // one past the end adds an item, but only whole (`line_items.1={...}`), never a field of one
  if (
    index !== undefined &&
    (index > container.length || (index === container.length && rest.length > 0))
  ) {
    throw new RecipeProblem(
      `--override ${field}: the recipe's ${where} has ${container.length} item${container.length === 1 ? '' : 's'}, no item ${head}`,
    );
  }
  if (rest.length === 0) {
    container[at as number] = value;
    return;
  }
  const current = container[at as number];
  const next: Record<string, unknown> | unknown[] =
    isObject(current) || Array.isArray(current) ? current : {};
  container[at as number] = next;
  setPath(next, rest, value, field, parent === '' ? head : `${parent}.${head}`);
}

/** Where the step marked override is (0-based), or -1. */
export function overrideIndex(steps: readonly Step[]): number {
  return steps.findIndex(
    (s) => s.override === true || s.request?.override === true || s.admin?.override === true,
  );
}

/**
 * The override fields the record the marked step answered does not hold: the server ignored
 * them. A field `assigned_to` counts as held when the record has `assigned_to_id`; a field under
 * one the recipe itself sends (`line_items.0.unit_price`: the lines are not echoed, the totals
 * are) is taken as the recipe's fields are.
 */
export function ignoredOverrides(
  record: unknown,
  overrides: readonly Override[],
  recipeStep?: Step,
): string[] {
  const call = recipeStep?.request ?? recipeStep?.admin;
  const sent = new Set([
    ...Object.keys(isObject(call?.body) ? call.body : {}),
    ...Object.keys(recipeStep?.request?.multipart?.fields ?? {}),
  ]);
  return overrides
    .map((o) => o.field)
    .filter((field) => {
      const top = field.split('.')[0] ?? field;
      const nested = field.includes('.') && sent.has(top);
      return (
        !nested && !holds(record, field.split('.')) && !holds(record, `${field}_id`.split('.'))
      );
    });
}

function holds(record: unknown, path: string[]): boolean {
  let value: unknown = record;
  for (const part of path) {
    if (Array.isArray(value) && /^\d+$/.test(part)) {
      value = value[Number(part)];
    } else if (isObject(value) && Object.hasOwn(value, part)) {
      value = value[part];
    } else {
      return false;
    }
  }
  return value !== undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
