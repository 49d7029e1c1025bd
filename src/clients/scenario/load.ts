import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { parse } from 'yaml';
import type { z } from 'zod';
import { isMatcher, isPlainObject, MATCHER_KEYS } from './matchers';
import { type Scenario, ScenarioSchema, type Step } from './schema';

// PATHs are files or folders (walked for .yaml, .yml, .json, sorted). A file that cannot be read,
// parsed or validated is still a scenario: a failed one, named after its file.

export type Loaded =
  | { ok: true; file: string; source: string; scenario: Scenario }
  | { ok: false; file: string; name: string; error: string };

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

export class MissingPath extends Error {}

/** The scenario files under `paths`, in order; a path that is not there is a usage error. */
export async function findFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (!existsSync(path)) {
      throw new MissingPath(`no such file or folder: ${path}`);
    }
    files.push(...((await stat(path)).isDirectory() ? await walk(path) : [path]));
  }
  return [...new Set(files)];
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      found.push(...(await walk(path)));
    } else if (EXTENSIONS.has(extname(entry.name).toLowerCase())) {
      found.push(path);
    }
  }
  return found;
}

export async function loadFile(file: string): Promise<Loaded> {
  const shown = displayPath(file);
  const failed = (error: string): Loaded => ({
    ok: false,
    file: shown,
    name: shown,
    error,
  });
  let data: unknown;
  try {
    const text = await readFile(file, 'utf8');
    data = extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parse(text);
  } catch (err) {
    return failed(`cannot be parsed: ${firstLine((err as Error).message)}`);
  }
  const parsed = ScenarioSchema.safeParse(data);
  if (!parsed.success) {
    return failed(describeIssue(parsed.error));
  }
  const badMatcher = findBadMatcher(parsed.data);
  if (badMatcher) {
    return failed(badMatcher);
  }
  return { ok: true, file: shown, source: file, scenario: parsed.data };
}

function describeIssue(error: z.ZodError): string {
  // a misspelt key (`step:`) is the cause of the missing one (`steps`): name it first
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  if (!issue) {
    return 'is not a scenario';
  }
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
  if (issue.code === 'unrecognized_keys') {
    return `${where}: unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
  }
  return `${where}: ${issue.message}`;
}

/**
 * `expect.status` and header expectations take a value or a matcher; an object there that is not
 * a valid matcher cannot be a literal (a status is a number, a header text), so it is a mistake
 * the author should hear about: `{between: [200, 299]}`, `{gte: "200"}`.
 */
function findBadMatcher(scenario: Scenario): string | undefined {
  const all = [
    ...scenario.steps.map((step, i): [string, Step] => [`steps.${i}`, step]),
    ...(scenario.teardown ?? []).map((step, i): [string, Step] => [`teardown.${i}`, step]),
  ];
  for (const [at, step] of all) {
    const bad =
      badRegex(step.expect?.body, `${at}.expect.body`) ??
      badRegex(step.delivery?.body, `${at}.delivery.body`);
    if (bad) {
      return bad;
    }
  }
  for (const [i, step] of all) {
    const candidates: [string, unknown][] = [
      [`${i}.expect.status`, step.expect?.status],
      ...Object.entries(step.expect?.headers ?? {}).map(([k, v]): [string, unknown] => [
        `${i}.expect.headers.${k}`,
        v,
      ]),
      ...Object.entries(step.delivery?.headers ?? {}).map(([k, v]): [string, unknown] => [
        `${i}.delivery.headers.${k}`,
        v,
      ]),
    ];
    for (const [where, value] of candidates) {
      const regex = badRegex(value, where);
      if (regex) {
        return regex;
      }
      if (isPlainObject(value) && !isMatcher(value)) {
        return `${where}: unknown matcher ${JSON.stringify(value)} (matchers: ${MATCHER_KEYS.join(', ')})`;
      }
    }
  }
  return undefined;
}

/**
 * An object of a body expectation whose keys are all matcher keys is meant as a matcher: a `match`
 * that is not a valid regex there is a mistake, not a literal to compare (`{match: "[a-"}`).
 */
function badRegex(value: unknown, where: string): string | undefined {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const bad = badRegex(item, `${where}.${i}`);
      if (bad) {
        return bad;
      }
    }
    return undefined;
  }
  if (!isPlainObject(value)) {
    return undefined;
  }
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((k) => MATCHER_KEYS.includes(k)) && 'match' in value) {
    const source = value.match;
    if (typeof source === 'string') {
      try {
        new RegExp(source);
      } catch (err) {
        return `${where}.match: ${JSON.stringify(source)} is not a valid regular expression (${(err as Error).message})`;
      }
    }
  }
  for (const [k, v] of Object.entries(value)) {
    const bad = badRegex(v, `${where}.${k}`);
    if (bad) {
      return bad;
    }
  }
  return undefined;
}

function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel === '' || rel.startsWith('..') ? file : rel;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
