/**
 * JSON text of `value`, cut at `limit` characters, without serialising what lies past the cut.
 * Answers grow large by their arrays (a page's `data`): a value holding a long array is written a
 * member at a time, the array an element at a time, and writing stops at the limit, so a 75 KB
 * page costs what its first 16 KB do. Anything else is one native JSON.stringify.
 */
/** How many elements make an array worth writing in pieces. */
const LONG = 8;
const isLong = (v: unknown) => Array.isArray(v) && v.length > LONG;

export function cappedJson(value: unknown, limit: number): { text: string; truncated: boolean } {
  const parts: string[] = [];
  let length = 0;
  const push = (text: string): boolean => {
    parts.push(text);
    length += text.length;
    return length <= limit;
  };
  const writeArray = (items: readonly unknown[]): boolean => {
    if (!push('[')) {
      return false;
    }
    for (let i = 0; i < items.length; i++) {
      if (!push(`${i > 0 ? ',' : ''}${JSON.stringify(items[i]) ?? 'null'}`)) {
        return false;
      }
    }
    return push(']');
  };
  const write = (v: unknown): boolean => {
    if (isLong(v)) {
      return writeArray(v as unknown[]);
    }
    if (
      v === null ||
      typeof v !== 'object' ||
      Array.isArray(v) ||
      typeof (v as { toJSON?: unknown }).toJSON === 'function' ||
      !Object.values(v).some(isLong)
    ) {
      return push(JSON.stringify(v) ?? 'null');
    }
    if (!push('{')) {
      return false;
    }
    let first = true;
    for (const [key, member] of Object.entries(v)) {
      if (member === undefined || typeof member === 'function') {
        continue;
      }
      const name = `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      const more = isLong(member)
        ? push(name) && writeArray(member as unknown[])
        : push(`${name}${JSON.stringify(member)}`);
      if (!more) {
        return false;
      }
    }
    return push('}');
  };
  const complete = write(value);
  const text = parts.join('');
  return complete ? { text, truncated: false } : { text: text.slice(0, limit), truncated: true };
}
