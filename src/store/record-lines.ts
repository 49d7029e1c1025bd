import type { RawRecord } from './types';

// A collection of the data file is `{`, then `\n"<id>":<json>` lines separated by commas, then
// `}`: a record a line, as fold.ts writes it. Read here at start (a workspace parsed a line at a
// time) and by a fold (data-file-sources.ts, a collection copied a record line at a time).

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;

/**
 * A collection's records parsed a line at a time, its span being `{`, then `\n"<id>":<json>`
 * lines separated by commas, then `}` (a record a line, as fold.ts writes it). Why: parsing a
 * workspace as one text held that text (as large as the workspace's bytes) beside the bytes and
 * the records made from it, a start's peak memory; a line at a time holds one record's text.
 * Undefined when the span is not in that shape (the caller parses it whole).
 */
export function recordsOfSpan(
  bytes: Buffer,
  start: number,
  end: number,
): Map<string, RawRecord> | undefined {
  if (bytes[start] !== OPEN || bytes[start + 1] !== NEWLINE || bytes[end - 1] !== CLOSE) {
    return undefined;
  }
  const records = new Map<string, RawRecord>();
  try {
    for (let at = start + 2; at < end; ) {
      let next = bytes.indexOf(NEWLINE, at);
      if (next === -1 || next > end) {
        next = end;
      }
      // The line ends in the comma before the next record, or in the collection's `}`.
      const last = next === end;
      const close = next - 1;
      const found = recordIdAt(bytes, at);
      if (bytes[close] !== (last ? CLOSE : COMMA) || found === undefined) {
        return undefined;
      }
      records.set(found[0], JSON.parse(bytes.toString('utf8', found[1], close)) as RawRecord);
      at = next + 1;
    }
  } catch {
    return undefined; // a record that is no JSON: the whole parse says where
  }
  return records;
}

/**
 * The id a record line at `at` starts with (`"<id>":`), and where its JSON starts; undefined when
 * no id and colon start it.
 */
export function recordIdAt(bytes: Buffer, at: number): [id: string, json: number] | undefined {
  if (bytes[at] !== QUOTE) {
    return undefined;
  }
  let escaped = false;
  let end = at + 1;
  for (; end < bytes.length; end++) {
    const byte = bytes[end];
    if (byte === BACKSLASH) {
      escaped = true;
      end += 1;
    } else if (byte === QUOTE) {
      break;
    }
  }
  if (bytes[end + 1] !== COLON) {
    return undefined;
  }
  const id = escaped
    ? (JSON.parse(bytes.toString('utf8', at, end + 1)) as string)
    : bytes.toString('utf8', at + 1, end);
  return [id, end + 2];
}
