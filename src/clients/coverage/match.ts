import type { Operation } from './document';

// Which operation of the document a logged call reached. The logged path is concrete
// (`/v1/contacts/3f2c...`); the document's are templates under the server's `/v1`.

/** The server's path: every path of the document is under it, every logged path starts with it. */
const BASE = '/v1';

interface Template {
  op: Operation;
  segments: (string | null)[]; // null: a parameter, which takes any one non-empty segment
}

const isParam = (segment: string) => /^\{[^}]+\}$/.test(segment);

/** A function from a logged method and path to its operation (undefined: none matches). */
export function operationMatcher(
  operations: readonly Operation[],
): (method: string, path: string) => Operation | undefined {
  const templates: Template[] = operations.map((op) => ({
    op,
    segments: op.path.split('/').map((s) => (isParam(s) ? null : s)),
  }));
  const seen = new Map<string, Operation | undefined>();
  return (method, path) => {
    const key = `${method} ${path}`;
    if (!seen.has(key)) {
      seen.set(key, find(templates, method.toUpperCase(), path));
    }
    return seen.get(key);
  };
}

function find(templates: Template[], method: string, path: string): Operation | undefined {
  if (!path.startsWith(`${BASE}/`)) {
    return undefined;
  }
  const segments = path.slice(BASE.length).split('/');
  const found = best(templates, method, segments);
  // decisions.md, HTTP conventions: HEAD is answered wherever GET is; the document names the GET.
  return found ?? (method === 'HEAD' ? best(templates, 'GET', segments) : undefined);
}

/**
 * The template of `method` that takes `segments`; where several do, the one whose first literal
 * comes earliest (`/jobs/search` before `/jobs/{id}`), as the router picks a literal route.
 */
function best(templates: Template[], method: string, segments: string[]): Operation | undefined {
  let chosen: Template | undefined;
  for (const t of templates) {
    if (t.op.method === method && takes(t, segments) && (!chosen || moreLiteral(t, chosen))) {
      chosen = t;
    }
  }
  return chosen?.op;
}

const takes = (t: Template, segments: string[]): boolean =>
  t.segments.length === segments.length &&
  t.segments.every((s, i) => (s === null ? segments[i] !== '' : s === segments[i]));

function moreLiteral(a: Template, b: Template): boolean {
  for (let i = 0; i < a.segments.length; i++) {
    const literalA = a.segments[i] !== null;
    const literalB = b.segments[i] !== null;
    if (literalA !== literalB) {
      return literalA;
    }
  }
  return false;
}
