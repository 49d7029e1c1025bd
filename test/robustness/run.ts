import { describe, expect, test } from 'vitest';
import type { Reply } from '../support/harness';
import type { Case, Group } from './cases';
import { invariants, judge } from './checks';
import { type Operation, operations } from './document';
import { type Env, environment } from './environment';
import { send } from './send';

// Running cases: every answer meets the invariants and the case's own expectation; a case's
// problems come back named, so one failing test lists them all.

async function runCase(env: Env, op: Operation, c: Case): Promise<string[]> {
  let reply: Reply;
  try {
    reply = await send(env, op, c);
  } catch (err) {
    return [`${c.name}: ${String((err as Error).message ?? err).slice(0, 600)}`];
  }
  return [...invariants(op, c.method ?? op.method, reply), ...judge(c.expect, reply)].map(
    (p) => `${c.name}: ${p}`,
  );
}

export async function runAll(env: Env, op: Operation, cases: Case[]): Promise<string[]> {
  const problems: string[] = [];
  for (const c of cases) {
    problems.push(...(await runCase(env, op, c)));
  }
  return problems;
}

/** One test per operation the group has cases for, each in a fresh environment. */
export function walkOperations(group: Group): void {
  const rows = operations
    .map((op) => [`${op.base} ${op.method} ${op.path}`, op, group.cases(op)] as const)
    .filter(([, , cases]) => cases.length > 0);
  describe.each(rows)('%s', (_, op, cases) => {
    test(`${group.name} (${cases.length} cases) never fault and answer as the spec says`, async () => {
      const env = await environment();
      const problems = await runAll(env, op, cases);
      expect(problems).toEqual([]);
    });
  });
}
