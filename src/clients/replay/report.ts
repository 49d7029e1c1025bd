import type { Outcome } from './run';

// What a replay prints: a line a request (and its differences under it), a summary, the --json
// report and the --junit file.

export interface Tally {
  same: number;
  different: number;
  skipped: number;
}

export function tally(outcomes: readonly Outcome[]): Tally {
  const count = (result: Outcome['result']) => outcomes.filter((o) => o.result === result).length;
  return { same: count('same'), different: count('different'), skipped: count('skipped') };
}

/**
 * `POST /v1/jobs  201 (recorded 201)  same`; without --compare only the statuses; a skip with
 * its reason; each difference on a line of its own below.
 */
export function outcomeLines(o: Outcome, compare: boolean): string[] {
  const head = `${o.method} ${o.path}`;
  if (o.result === 'skipped') {
    return [`${head}  skipped: ${o.reason}`];
  }
  const status = `${o.status ?? 'no answer'} (recorded ${o.recorded_status})`;
  const verdict = compare ? `  ${o.result}` : '';
  const note = o.reason === null ? [] : [`    (${o.reason})`];
  const shown = compare || o.failed ? o.differences : [];
  return [`${head}  ${status}${verdict}`, ...shown.map((d) => `    ${d}`), ...note];
}

export function summary(t: Tally, compare: boolean): string {
  const sent = t.same + t.different;
  return compare
    ? `${t.same} same, ${t.different} different, ${t.skipped} skipped`
    : `${sent} sent, ${t.skipped} skipped`;
}

/** The --json report. */
export function jsonReport(outcomes: readonly Outcome[]): string {
  const requests = outcomes.map(({ failed: _f, duration_ms: _d, ...rest }) => rest);
  return JSON.stringify({ requests, ...tally(outcomes) }, null, 2);
}

/** One testsuite "replay", a testcase a request: a difference is a failure, a skip skipped. */
export function junitReport(outcomes: readonly Outcome[]): string {
  const t = tally(outcomes);
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = outcomes.reduce((sum, o) => sum + o.duration_ms, 0);
  const cases = outcomes.map((o, i) => {
    const open = `    <testcase classname="replay" name="${xml(`${i + 1} ${o.method} ${o.path}`)}" time="${seconds(o.duration_ms)}"`;
    if (o.result === 'same') {
      return `${open}/>`;
    }
    const inner =
      o.result === 'skipped'
        ? `      <skipped message="${xml(o.reason ?? '')}"/>`
        : `      <failure message="${xml(o.differences[0] ?? '')}" type="different">${xml(o.differences.join('\n'))}</failure>`;
    return `${open}>\n${inner}\n    </testcase>`;
  });
  const counts = `tests="${outcomes.length}" failures="${t.different}" errors="0" skipped="${t.skipped}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc replay" ${counts} time="${seconds(total)}">`,
    `  <testsuite name="replay" ${counts} time="${seconds(total)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

// XML 1.0 allows no control characters but tab, newline and carriage return, even escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function xml(text: string): string {
  return text
    .replace(CONTROL, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
