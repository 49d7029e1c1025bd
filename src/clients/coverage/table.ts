import type { Counts, Coverage, Endpoint } from './report';

// The terminal report: sections a reader scans top to bottom, every line within 100 columns.

const WIDTH = 100;
const INDENT = '  ';

export interface Heading {
  /** The svc read, `http://host:port`. */
  base: string;
  deliveries: number;
}

export function coverageTable(c: Coverage, heading: Heading): string[] {
  const scope = c.workspace_id === null ? 'all workspaces' : `workspace ${c.workspace_id}`;
  const total = c.operations.length + c.never_called.length;
  const lines = [
    clip(`Coverage of ${heading.base} (${scope})`),
    `${count(c.requests, 'request')}, ${count(heading.deliveries, 'delivery', 'deliveries')}`,
    '',
    `Operations called: ${c.operations.length} of ${total}`,
  ];
  const pathWidth = Math.min(
    40,
    Math.max(
      4,
      ...c.operations.map((o) => o.path.length),
      ...c.unmatched.map((u) => u.path.length),
    ),
  );
  const row = (method: string, path: string, calls: string, rest: string) =>
    clip(
      `${INDENT}${method.padEnd(7)} ${path.padEnd(pathWidth)} ${calls.padStart(5)}  ${rest}`.trimEnd(),
    );
  if (c.operations.length > 0) {
    lines.push(row('METHOD', 'PATH', 'CALLS', 'STATUSES'));
    for (const o of c.operations) {
      const faulted = o.faulted > 0 ? ` (${o.faulted} faulted)` : '';
      lines.push(
        row(o.method, o.path, String(o.calls), statusText(o.statuses, 'dropped') + faulted),
      );
    }
  }
  lines.push('', `Never called: ${c.never_called.length}`, ...grid(c.never_called.map(endpoint)));
  if (c.not_logged.length > 0) {
    lines.push(
      ...wrap(
        `Not in the request log (no workspace credential): ${c.not_logged.map(endpoint).join(', ')}`,
        '',
      ),
    );
  }
  if (c.unmatched.length > 0) {
    lines.push('', `No operation of the document (${c.unmatched.length}):`);
    for (const u of c.unmatched) {
      lines.push(row(u.method, u.path, String(u.calls), statusText(u.statuses, 'dropped')));
    }
  }
  lines.push('', 'Error codes');
  const codes = Object.entries(c.error_codes).map(([code, n]) => `${code} ${n}`);
  lines.push(...(codes.length > 0 ? wrap(codes.join(', '), INDENT) : [`${INDENT}none met`]));
  lines.push(...eventLines(c));
  lines.push('', 'Never exercised');
  const hints = c.never_exercised.flatMap((h) => wrap(`- ${h.message}`, INDENT, `${INDENT}  `));
  lines.push(...(hints.length > 0 ? hints : [`${INDENT}nothing found`]));
  return lines;
}

function eventLines(c: Coverage): string[] {
  const lines = ['', `Events delivered: ${c.events.length}`];
  if (c.events.length === 0) {
    return lines;
  }
  const width = Math.max(5, ...c.events.map((e) => e.event.length));
  const row = (event: string, deliveries: string, retried: string, statuses: string) =>
    clip(
      `${INDENT}${event.padEnd(width)} ${deliveries.padStart(10)} ${retried.padStart(7)}  ${statuses}`.trimEnd(),
    );
  lines.push(row('EVENT', 'DELIVERIES', 'RETRIED', 'STATUSES'));
  for (const e of c.events) {
    const faulted = e.faulted > 0 ? ` (${e.faulted} faulted)` : '';
    lines.push(
      row(
        e.event,
        String(e.deliveries),
        String(e.retried),
        statusText(e.statuses, 'no-answer') + faulted,
      ),
    );
  }
  return lines;
}

/** `201 x2, 400 x1`; status 0 (nothing answered) named. */
function statusText(statuses: Counts, none: string): string {
  return Object.entries(statuses)
    .map(([status, n]) => `${status === '0' ? none : status} x${n}`)
    .join(', ');
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const endpoint = (e: Endpoint) => `${e.method} ${e.path}`;

/** Items down then across, in as many columns as fit (as `ls` lays out names). */
function grid(items: string[]): string[] {
  for (let columns = Math.min(items.length, 8); columns > 1; columns--) {
    const rows = Math.ceil(items.length / columns);
    const cols = Array.from({ length: columns }, (_, c) => items.slice(c * rows, (c + 1) * rows));
    const widths = cols.map((col) => Math.max(0, ...col.map((item) => item.length)) + 2);
    if (INDENT.length + widths.reduce((a, b) => a + b, 0) - 2 <= WIDTH) {
      return Array.from({ length: rows }, (_, r) =>
        (INDENT + cols.map((col, c) => (col[r] ?? '').padEnd(widths[c] ?? 0)).join('')).trimEnd(),
      );
    }
  }
  return items.map((item) => clip(INDENT + item));
}

/** `text` broken at spaces into lines of at most WIDTH, the first after `first`, the rest `rest`. */
function wrap(text: string, first: string, rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(' ')) {
    const prefix = lines.length === 0 ? first : rest;
    if (line.length > prefix.length && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = rest + word;
    } else {
      line = line.length > prefix.length ? `${line} ${word}` : line + word;
    }
  }
  lines.push(line);
  return lines.map(clip);
}

/** A line cut to WIDTH (a path longer than any the document has, from an odd client). */
const clip = (line: string) => (line.length > WIDTH ? `${line.slice(0, WIDTH - 3)}...` : line);
