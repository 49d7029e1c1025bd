import {
  isSha256Hex,
  matchedCandidates,
  type ParsedSignature,
  parseSignature,
  type SignatureVerdict,
  type VerifyInput,
} from './signature';

// The signature doctor: when a signature fails, why, in words for the delivery's line; when one
// passes during a rotation, that the secret is changing. It runs after the verdict is made and
// never changes it: the answer svc gets is the verifier's alone.

export type DiagnosisKind =
  | 'clock-skew'
  | 're-encoded'
  | 'another-secret'
  | 'not-hmac-sha256'
  | 'secret-rotating';

export interface Diagnosis {
  kind: DiagnosisKind;
  text: string;
}

export function diagnose(input: VerifyInput, verdict: SignatureVerdict): Diagnosis | undefined {
  const parsed = input.header === undefined ? undefined : parseSignature(input.header);
  if (!parsed) {
    return undefined; // missing or malformed: the verdict already says all there is
  }
  if (verdict === 'stale-timestamp') {
    return { kind: 'clock-skew', text: `clock skew: ${skew(parsed.t, input)}` };
  }
  if (verdict === 'ok') {
    return rotation(parsed, input);
  }
  if (verdict !== 'bad-signature') {
    return undefined;
  }
  if (!parsed.v1.some(isSha256Hex)) {
    return { kind: 'not-hmac-sha256', text: 'no v1 is a 64-digit hex HMAC-SHA256' };
  }
  for (const variant of reencodings(input.body)) {
    if (matchedCandidates(parsed, variant.body, input.secrets).some(Boolean)) {
      const late = outside(parsed.t, input) ? `; and ${skew(parsed.t, input)}` : '';
      return {
        kind: 're-encoded',
        text: `the body was re-encoded on the way: it verifies once ${variant.how}${late}`,
      };
    }
  }
  const n = input.secrets.length;
  const none = n === 1 ? 'your secret does not match' : `none of your ${n} secrets matches`;
  return {
    kind: 'another-secret',
    text: `signed with another secret: ${none}, and neither clock skew nor a re-encoded body explains it`,
  };
}

const outside = (t: number, input: VerifyInput) =>
  Math.abs(input.nowSeconds - t) > input.toleranceSeconds;

/** `t is 412 s behind this machine's clock, 112 s past the 300 s tolerance`. */
function skew(t: number, input: VerifyInput): string {
  const off = t - input.nowSeconds;
  const by = Math.abs(off);
  const where = off < 0 ? 'behind' : 'ahead of';
  return `t is ${by} s ${where} this machine's clock, ${by - input.toleranceSeconds} s past the ${input.toleranceSeconds} s tolerance`;
}

// spec, Signature verification 2: during a rotation the old and the new secret both sign for 24
// hours. The spec does not say which v1 comes first, so neither order is relied on here.
function rotation(parsed: ParsedSignature, input: VerifyInput): Diagnosis | undefined {
  if (parsed.v1.length < 2) {
    return undefined; // the usual case costs no second HMAC
  }
  const matched = matchedCandidates(parsed, input.body, input.secrets);
  if (!matched.some((m, i) => !m && isSha256Hex(parsed.v1[i] ?? ''))) {
    return undefined;
  }
  return {
    kind: 'secret-rotating',
    text: "secret rotating: another v1 matches none of your secrets; the subscription's secret is being rotated: take the new one within 24 hours",
  };
}

interface Variant {
  /** Completes "it verifies once ...". */
  how: string;
  body: Buffer;
}

/**
 * What the signed bytes may have been, if something on the way re-encoded them: a JSON parse and
 * re-serialise in the usual styles, a line break added or taken, UTF-8 read as Latin-1. svc signs
 * compact JSON, so re-serialising compactly undoes most of what a proxy or framework does.
 */
function reencodings(raw: Buffer): Variant[] {
  const text = raw.toString('utf8');
  const variants: Variant[] = [];
  let parsed: unknown;
  let json = true;
  try {
    parsed = JSON.parse(text);
  } catch {
    json = false;
  }
  if (json) {
    const styles: [string, Style][] = [
      ['re-serialised as compact JSON', {}],
      ['re-serialised as JSON indented by 2', { indent: '  ' }],
      ['re-serialised as JSON indented by 4', { indent: '    ' }],
      ['re-serialised as JSON with a space after each , and :', { spaced: true }],
      ['re-serialised as JSON with non-ASCII escaped as \\u', { ascii: true }],
      ['re-serialised as JSON with its keys sorted', { sorted: true }],
    ];
    for (const [how, style] of styles) {
      variants.push({ how, body: Buffer.from(serialise(parsed, style, '')) });
    }
  }
  if (text.endsWith('\n')) {
    variants.push({ how: 'its trailing line break is removed', body: Buffer.from(text.trimEnd()) });
  } else {
    variants.push({ how: 'a trailing line break is added', body: Buffer.from(`${text}\n`) });
  }
  // text read as Latin-1 and written back as UTF-8 holds only code points up to U+00FF
  if (/[\u0080-\u00ff]/.test(text) && !/[\u0100-\uffff]/.test(text)) {
    variants.push({
      how: 'its text is turned back from UTF-8 into Latin-1 (read with the wrong charset on the way)',
      body: Buffer.from(text, 'latin1'),
    });
  }
  return variants.filter((v) => !v.body.equals(raw));
}

interface Style {
  indent?: string;
  spaced?: boolean;
  ascii?: boolean;
  sorted?: boolean;
}

function serialise(value: unknown, style: Style, depth: string): string {
  if (value === null || typeof value !== 'object') {
    const plain = JSON.stringify(value) ?? 'null';
    return style.ascii
      ? plain.replace(
          /[\u0080-\uffff]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        )
      : plain;
  }
  const inner = style.indent === undefined ? '' : depth + style.indent;
  const open = style.indent === undefined ? '' : `\n${inner}`;
  const close = style.indent === undefined ? '' : `\n${depth}`;
  const comma = style.indent !== undefined ? `,\n${inner}` : style.spaced ? ', ' : ',';
  const colon = style.indent !== undefined || style.spaced ? ': ' : ':';
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return '[]';
    }
    return `[${open}${value.map((v) => serialise(v, style, inner)).join(comma)}${close}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) {
    return '{}';
  }
  const ordered = style.sorted ? [...keys].sort() : keys;
  const fields = ordered.map(
    (k) =>
      `${serialise(k, style, inner)}${colon}${serialise((value as Record<string, unknown>)[k], style, inner)}`,
  );
  return `{${open}${fields.join(comma)}${close}}`;
}
