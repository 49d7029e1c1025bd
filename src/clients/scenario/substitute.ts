import { Literal } from './matchers';

// FORMAT.md, `{{name}}`: a string that is exactly `{{name}}` takes the value with its JSON type;
// inside a longer string the value is interpolated as text. An unknown name fails the step.

export class UnknownName extends Error {
  /** `field`: for `{{c.nope}}`, the part of the name that was there (`c`) and the field it lacks. */
  constructor(
    readonly variable: string,
    field?: { of: string; name: string },
  ) {
    super(
      field
        ? `{{${variable}}}: ${field.of} has no field ${field.name}`
        : `{{${variable}}} is not a captured or built-in name`,
    );
  }
}

// `{{job.job_number}}` reads into a captured object (`{{list.data.0.id}}` into an array)
const NAME = '[A-Za-z_][\\w-]*(?:\\.[\\w-]+)*';
const WHOLE = new RegExp(`^\\{\\{\\s*(${NAME})\\s*\\}\\}$`);
const INNER = new RegExp(`\\{\\{\\s*(${NAME})\\s*\\}\\}`, 'g');

export type Vars = ReadonlyMap<string, unknown>;

/**
 * `asLiteral`: for expectations; a value substituted whole that is an object or an array comes
 * wrapped as a Literal, so what was captured is compared as data, never read as a matcher.
 */
export function substitute<T>(value: T, vars: Vars, asLiteral = false): T {
  return walk(value, vars, asLiteral) as T;
}

function walk(value: unknown, vars: Vars, asLiteral: boolean): unknown {
  if (typeof value === 'string') {
    return substituteString(value, vars, asLiteral);
  }
  if (Array.isArray(value)) {
    return value.map((item) => walk(item, vars, asLiteral));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, vars, asLiteral)]));
  }
  return value;
}

function substituteString(text: string, vars: Vars, asLiteral: boolean): unknown {
  const whole = WHOLE.exec(text);
  if (whole?.[1] !== undefined) {
    const found = lookup(whole[1], vars);
    return asLiteral && typeof found === 'object' && found !== null ? new Literal(found) : found;
  }
  return text.replace(INNER, (_, name: string) => {
    const found = lookup(name, vars);
    return typeof found === 'string' ? found : JSON.stringify(found);
  });
}

function lookup(name: string, vars: Vars): unknown {
  if (vars.has(name)) {
    return vars.get(name);
  }
  const [head = '', ...rest] = name.split('.');
  if (rest.length === 0 || !vars.has(head)) {
    throw new UnknownName(name);
  }
  let value: unknown = vars.get(head);
  let of = head;
  for (const part of rest) {
    if (Array.isArray(value) && /^\d+$/.test(part)) {
      value = value[Number(part)];
    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, part)) {
      value = (value as Record<string, unknown>)[part];
    } else {
      throw new UnknownName(name, { of, name: part });
    }
    if (value === undefined) {
      throw new UnknownName(name, { of, name: part });
    }
    of = `${of}.${part}`;
  }
  return value;
}

/** Whether `value` mentions `{{name}}` anywhere (so a built-in costly to read is read only then). */
export function mentions(value: unknown, name: string): boolean {
  return new RegExp(`\\{\\{\\s*${name}\\s*\\}\\}`).test(JSON.stringify(value) ?? '');
}
