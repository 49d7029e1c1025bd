import { randomUUID } from 'node:crypto';
import { type Document, type Operation, resolve, type Schema } from './document';

// Valid values built from the schema: every case starts from one, so its one change is the
// only fault.

const NONE = Symbol('no sample');

function sampleString(s: Schema): string | typeof NONE {
  if (s.pattern !== undefined) {
    return NONE;
  }
  const byFormat: Record<string, string> = {
    uuid: randomUUID(),
    date: '2026-01-15',
    'date-time': '2030-01-15T10:00:00.000Z',
    email: 'robust@example.com',
    uri: 'https://example.com/robust',
    url: 'https://example.com/robust',
  };
  if (s.format !== undefined) {
    return byFormat[s.format] ?? NONE;
  }
  return 'r'.repeat(Math.max(1, s.minLength ?? 1));
}

function sampleNumber(s: Schema): number | typeof NONE {
  const exclusive = s.exclusiveMinimum === true ? 1 : 0;
  const low = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : undefined;
  const n = low ?? (s.minimum ?? 0) + exclusive;
  return s.maximum !== undefined && n > s.maximum ? NONE : Math.max(n, s.minimum ?? n);
}

function sampleObject(doc: Document, s: Schema): Record<string, unknown> | typeof NONE {
  const out: Record<string, unknown> = {};
  for (const name of s.required ?? []) {
    const value = sample(doc, s.properties?.[name]);
    if (value === NONE) {
      return NONE;
    }
    out[name] = value;
  }
  return out;
}

/** A value the schema accepts, or NONE when one cannot be built with confidence. */
function sample(doc: Document, raw: Schema | undefined): unknown {
  const s = resolve(doc, raw);
  if (!s) {
    return NONE;
  }
  if (s.enum && s.enum.length > 0) {
    return s.enum[0];
  }
  const alternative = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (alternative) {
    return sample(doc, alternative);
  }
  switch (s.type) {
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number':
      return sampleNumber(s);
    case 'boolean':
      return true;
    case 'array': {
      if ((s.minItems ?? 0) === 0) {
        return [];
      }
      const item = sample(doc, s.items);
      return item === NONE ? NONE : Array.from({ length: s.minItems ?? 1 }, () => item);
    }
    case 'object':
      return sampleObject(doc, s);
    default:
      return NONE;
  }
}

/** The request body every body case starts from: valid, so one change is the only fault. */
export function baseBody(op: Operation): { body: Record<string, unknown>; precise: boolean } {
  if (!op.json) {
    return { body: {}, precise: false };
  }
  const value = sample(op.doc, op.json);
  return value === NONE || typeof value !== 'object' || value === null || Array.isArray(value)
    ? { body: {}, precise: false }
    : { body: value as Record<string, unknown>, precise: true };
}
