import { type Case, type Expect, type Group, hasBody, invalid, isWrite, JSON_CT } from './cases';
import type { Operation } from './document';
import { propertyCases } from './properties';
import { baseBody } from './sample';
import {
  BROKEN_MULTIPART,
  bytes,
  FOREIGN_MEDIA_TYPES,
  MALFORMED_JSON,
  nested,
  TOP_LEVEL_JSON,
} from './values';

// Hostile request bodies: broken JSON, wrong media types, odd bytes, deep nesting, and each
// property of the base body made wrong in turn. spec, Errors: anything wrong in the request is
// 400 invalid_request.

function syntaxCases(op: Operation, baseText: string, malformed?: Expect): Case[] {
  return [
    { name: 'the base body', body: baseText, headers: JSON_CT },
    ...MALFORMED_JSON.map((text) => ({
      name: `malformed JSON ${JSON.stringify(text)}`,
      body: text,
      headers: JSON_CT,
      expect: malformed,
    })),
    ...TOP_LEVEL_JSON.map((text) => ({
      name: `a JSON ${text} at the top level`,
      body: text,
      headers: JSON_CT,
      expect: op.json?.type === 'object' ? malformed : undefined,
    })),
    {
      name: 'an empty body with Content-Type: application/json',
      body: '',
      headers: JSON_CT,
      // decisions.md, Control API: there it is no body, as without the header.
      expect: op.base === '/__admin' ? undefined : malformed,
    },
    { name: 'an empty body without Content-Type', body: '' },
    { name: 'no body with Content-Type: application/json', headers: JSON_CT },
    { name: 'the base body without Content-Type', body: baseText, expect: malformed },
  ];
}

function mediaTypeCases(op: Operation, baseText: string, malformed?: Expect): Case[] {
  return [
    ...FOREIGN_MEDIA_TYPES.filter((type) => !op.mediaTypes.includes(type)).map((type) => ({
      name: `the base body as ${type}`,
      body: baseText,
      headers: { 'Content-Type': type },
      expect: malformed,
    })),
    ...BROKEN_MULTIPART.filter(() => op.json !== undefined).map((type) => ({
      name: `a broken multipart body (${type})`,
      body: `--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n${baseText}\r\n--xyz`,
      headers: { 'Content-Type': type },
      expect: malformed,
    })),
  ];
}

function encodingCases(baseText: string, malformed?: Expect): Case[] {
  return [
    // RFC 8259: JSON on the wire is UTF-8 and a charset parameter has no effect. UTF-16 bytes
    // are therefore malformed; UTF-8 bytes merely labelled utf-16 may be taken as they are.
    {
      name: 'the base body as UTF-16 with charset=utf-16',
      body: new Uint8Array(Buffer.from(`\ufeff${baseText}`, 'utf16le')),
      headers: { 'Content-Type': 'application/json; charset=utf-16' },
      expect: malformed,
    },
    {
      name: 'the base body as UTF-8 labelled charset=utf-16',
      body: baseText,
      headers: { 'Content-Type': 'application/json; charset=utf-16' },
    },
    {
      name: 'a raw NUL byte before the body',
      body: bytes([0], baseText),
      headers: JSON_CT,
      expect: malformed,
    },
    {
      name: 'invalid UTF-8 outside any string',
      body: bytes([0xff, 0xfe], baseText),
      headers: JSON_CT,
      expect: malformed,
    },
    {
      name: 'a UTF-8 byte-order mark before the body',
      body: bytes([0xef, 0xbb, 0xbf], baseText),
      headers: JSON_CT,
    },
  ];
}

function shapeCases(op: Operation, baseText: string, malformed?: Expect): Case[] {
  const object = (...members: string[]) => `{${members.filter((m) => m !== '').join(',')}}`;
  const baseMembers = baseText.slice(1, -1);
  const nulls = Object.keys(op.json?.properties ?? {}).map((k) => `"${k}":null`);
  return [
    { name: 'an object nested 5000 deep', body: nested(5000, '{"a":', '}', '1'), headers: JSON_CT },
    {
      name: 'an array nested 5000 deep',
      body: nested(5000, '[', ']', '1'),
      headers: JSON_CT,
      expect: op.json?.type === 'object' ? malformed : undefined,
    },
    {
      name: 'prototype-polluting keys',
      body: object(
        '"__proto__":{"polluted":true}',
        '"constructor":{"prototype":{"x":1}}',
        baseMembers,
      ),
      headers: JSON_CT,
    },
    {
      name: 'every property twice, the second time as null',
      body: object(baseMembers, ...nulls),
      headers: JSON_CT,
    },
  ];
}

function readOnlyCases(op: Operation, baseText: string): Case[] {
  if (op.base !== '/v1' || !op.secured || !isWrite(op)) {
    return [];
  }
  // A write a read-only key may make (subscribing to webhooks) documents no 403.
  if (op.op.responses?.['403'] === undefined) {
    return [];
  }
  return [
    {
      name: 'malformed JSON with a read-only key',
      who: 'read',
      body: '{',
      headers: JSON_CT,
      expect: { status: [400, 403] },
    },
    { name: 'the base body with a read-only key', who: 'read', body: baseText, headers: JSON_CT },
  ];
}

export function bodyCases(op: Operation): Case[] {
  if (!hasBody(op)) {
    return [];
  }
  const { body: base, precise } = baseBody(op);
  const baseText = JSON.stringify(base);
  const malformed = op.json !== undefined ? invalid(op) : undefined;
  return [
    ...syntaxCases(op, baseText, malformed),
    ...mediaTypeCases(op, baseText, malformed),
    ...encodingCases(baseText, malformed),
    ...shapeCases(op, baseText, malformed),
    ...Object.entries(op.json?.properties ?? {}).flatMap(([prop, raw]) =>
      propertyCases(op, { prop, raw, base, precise, malformed }),
    ),
    ...readOnlyCases(op, baseText),
  ];
}

export const bodies: Group = { name: 'hostile bodies', cases: bodyCases };
