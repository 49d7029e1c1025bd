import type { Document } from './document';
import { errorCodeOf, type LogEntry } from './entries';
import { operationMatcher } from './match';
import { bump, type Coverage, type OperationRow, type UnmatchedRow } from './report';

type RequestPart = Pick<
  Coverage,
  'operations' | 'never_called' | 'error_codes' | 'unmatched' | 'not_logged' | 'faulted'
>;

/** What the logged calls reached: operations with their statuses, error codes, the unmatched. */
export function tallyRequests(doc: Document, entries: readonly LogEntry[]): RequestPart {
  const match = operationMatcher(doc.operations);
  const rows = new Map(
    doc.operations.map((op): [typeof op, OperationRow] => [
      op,
      {
        method: op.method,
        path: op.path,
        calls: 0,
        statuses: {},
        operation_id: op.operationId,
        faulted: 0,
      },
    ]),
  );
  const unmatched = new Map<string, UnmatchedRow>();
  const errorCodes: Record<string, number> = {};
  const faulted = { calls: 0, error_codes: {} as Record<string, number> };
  for (const entry of entries) {
    const status = String(entry.status);
    const op = match(entry.method, entry.path);
    const opRow = op ? rows.get(op) : undefined;
    const row = opRow ?? unmatchedRow(unmatched, entry);
    row.calls += 1;
    bump(row.statuses, status);
    const code = errorCodeOf(entry);
    if (code !== undefined) {
      bump(errorCodes, code);
    }
    // decisions.md, svc coverage: a faulted call is what the client met, so it counts; it is
    // marked, so a suite can tell an injected 503 from one svc answered.
    if (entry.fault !== undefined) {
      faulted.calls += 1;
      if (opRow) {
        opRow.faulted += 1;
      }
      if (code !== undefined) {
        bump(faulted.error_codes, code);
      }
    }
  }
  const all = [...rows.values()];
  const logged = new Set(doc.operations.filter((op) => op.logged).map((op) => rows.get(op)));
  return {
    operations: all.filter((row) => row.calls > 0),
    never_called: all
      .filter((row) => row.calls === 0 && logged.has(row))
      .map(({ method, path }) => ({ method, path })),
    error_codes: sorted(errorCodes),
    unmatched: [...unmatched.values()].sort((a, b) => b.calls - a.calls),
    not_logged: doc.operations
      .filter((op) => !op.logged)
      .map(({ method, path }) => ({ method, path })),
    faulted: { calls: faulted.calls, error_codes: sorted(faulted.error_codes) },
  };
}

function unmatchedRow(rows: Map<string, UnmatchedRow>, entry: LogEntry): UnmatchedRow {
  const key = `${entry.method} ${entry.path}`;
  let row = rows.get(key);
  if (!row) {
    row = { method: entry.method, path: entry.path, calls: 0, statuses: {} };
    rows.set(key, row);
  }
  return row;
}

/** Most met first, then by name: the order a reader scans for. */
function sorted(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)),
  );
}
