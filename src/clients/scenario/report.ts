import { dirname } from 'node:path';
import type { Report, ScenarioResult } from './runner';

// The three faces of a run: a line per scenario for people, JSON for programs, JUnit XML for CI.

/** `PASS name`, `FAIL name` with the failure on the lines below, `SKIP name (reason)`. */
export function resultLine(r: ScenarioResult): string {
  switch (r.status) {
    case 'passed':
      return `PASS ${r.name}`;
    case 'skipped':
      return `SKIP ${r.name} (${r.reason ?? 'no reason given'})`;
    default:
      // a file that did not load is named by its path already: once is enough
      return `FAIL ${r.name}\n  ${r.reason ?? 'failed'}${r.name === r.file ? '' : `\n  in ${r.file}`}`;
  }
}

export function summaryLine(report: Report): string {
  return `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`;
}

/** A <testsuite> per folder of scenario files, a <testcase> per scenario, in run order. */
export function junitXml(report: Report): string {
  const suites = new Map<string, ScenarioResult[]>();
  for (const r of report.results) {
    const folder = dirname(r.file);
    suites.set(folder, [...(suites.get(folder) ?? []), r]);
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc scenario run" tests="${report.results.length}" failures="${report.failed}" skipped="${report.skipped}" time="${seconds(total(report.results))}">`,
  ];
  for (const [folder, results] of suites) {
    const failures = results.filter((r) => r.status === 'failed').length;
    const skipped = results.filter((r) => r.status === 'skipped').length;
    lines.push(
      `  <testsuite name="${xml(folder)}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(total(results))}">`,
    );
    for (const r of results) {
      const head = `    <testcase classname="${xml(folder)}" name="${xml(r.name)}" file="${xml(r.file)}" time="${seconds(r.duration_ms)}"`;
      if (r.status === 'passed') {
        lines.push(`${head}/>`);
      } else if (r.status === 'skipped') {
        lines.push(
          `${head}>`,
          `      <skipped message="${xml(r.reason ?? '')}"/>`,
          '    </testcase>',
        );
      } else {
        const reason = r.reason ?? 'failed';
        lines.push(
          `${head}>`,
          `      <failure message="${xml(reason.split('\n')[0] ?? reason)}">${xmlText(r.name === r.file ? reason : `${reason}\nin ${r.file}`)}</failure>`,
          '    </testcase>',
        );
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

function total(results: ScenarioResult[]): number {
  return results.reduce((sum, r) => sum + r.duration_ms, 0);
}

/** Escapes text for an element; drops characters XML 1.0 cannot hold at all. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Escapes text for an attribute: line breaks too, which a parser would otherwise fold to spaces. */
export function xml(text: string): string {
  return xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}
