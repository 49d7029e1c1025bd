import { type Case, type Expect, invalid, JSON_CT } from './cases';
import { type Operation, resolve, type Schema } from './document';
import { bytes, MB, refusesHugeString, ruleBreakers, TYPE_CASES } from './values';

// One property of the base body made wrong: the wrong type, a value its rule refuses, a huge
// string, NULs and broken UTF-8. Where the base body is valid the answer names the property.

interface Property {
  prop: string;
  raw: Schema;
  base: Record<string, unknown>;
  /** The base body is valid, so the property is the only fault. */
  precise: boolean;
  malformed: Expect | undefined;
}

/** The property's schema, the precise answer to a wrong value, and the body carrying one. */
interface Target {
  s: Schema;
  exact: Expect | undefined;
  withProp: (value: unknown) => string;
}

function wrongValueCases(op: Operation, p: Property, { s, withProp, exact }: Target): Case[] {
  const withText = (text: string) => withProp('@@VALUE@@').replace('"@@VALUE@@"', text);
  return [
    ...TYPE_CASES.map((t) => ({
      name: `${p.prop} as ${t.kind}`,
      body: withText(t.value(s)),
      headers: JSON_CT,
      expect: t.wrong(s) ? exact : undefined,
    })),
    ...ruleBreakers(s).map((breaker) => ({
      name: `${p.prop} as ${breaker.name}`,
      body: withProp(breaker.value),
      headers: JSON_CT,
      expect: p.precise ? invalid(op, p.prop) : undefined,
    })),
  ];
}

function stringCases(p: Property, { s, withProp, exact }: Target): Case[] {
  if (s.type !== 'string' && s.type !== undefined) {
    return [];
  }
  const withBytes = (inside: number[]) => {
    const [before = '', after = ''] = withProp('@@BYTES@@').split('@@BYTES@@');
    return bytes(before, inside, after);
  };
  return [
    {
      name: `${p.prop} as a 1 MB string`,
      body: withProp('x'.repeat(MB)),
      headers: JSON_CT,
      expect: refusesHugeString(s) ? exact : undefined,
    },
    {
      name: `${p.prop} with NUL characters`,
      body: withProp('a\u0000b\u0000'),
      headers: JSON_CT,
      expect: s.enum !== undefined ? exact : undefined,
    },
    {
      name: `${p.prop} with invalid UTF-8 and a raw NUL`,
      body: withBytes([0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x00]),
      headers: JSON_CT,
      // A raw control character inside a JSON string is malformed JSON.
      expect: p.malformed,
    },
    {
      name: `${p.prop} with invalid UTF-8`,
      body: withBytes([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]),
      headers: JSON_CT,
      // JSON text is UTF-8: bytes that are not make the body malformed (decisions.md).
      expect: p.malformed,
    },
  ];
}

export function propertyCases(op: Operation, p: Property): Case[] {
  const s = resolve(op.doc, p.raw) ?? {};
  const target: Target = {
    s,
    exact: p.precise && s.type !== undefined ? invalid(op, p.prop) : undefined,
    withProp: (value) => JSON.stringify({ ...p.base, [p.prop]: value }),
  };
  return [...wrongValueCases(op, p, target), ...stringCases(p, target)];
}
