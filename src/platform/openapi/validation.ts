import type { Hook } from '@hono/zod-openapi';
import type { z } from 'zod';
import type { AppEnv } from '../app-env';
import { ApiError } from '../errors';

type Issue = z.core.$ZodIssue;

/** `line_items[0].name`: the wrong field as the client spelled it. */
export function fieldOf(path: readonly PropertyKey[]): string | undefined {
  let out = '';
  for (const part of path) {
    out += typeof part === 'number' ? `[${part}]` : `${out === '' ? '' : '.'}${String(part)}`;
  }
  return out === '' ? undefined : out;
}

function describe(issue: Issue, field: string | undefined): string {
  const name = field ?? 'the request body';
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) {
    return `${name} is required`;
  }
  if (issue.code === 'invalid_type' && field === undefined) {
    return 'the request body must be a JSON object';
  }
  return `${name}: ${issue.message}`;
}

// A value that matches no branch of a union (an array or a comma string; a number or "") is
// reported by the branch that got furthest into it, so `tags: ["a", 1]` names `tags[1]` and says
// what was expected there; on a tie, the first branch, the field's main form, speaks.
function furthest(issue: Issue): Issue {
  if (issue.code !== 'invalid_union') {
    return issue;
  }
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first && (best === undefined || first.path.length > best.path.length)) {
      best = first;
    }
  }
  return best ? furthest({ ...best, path: [...issue.path, ...best.path] }) : issue;
}

export function issueToError(reported: Issue): ApiError {
  const issue = furthest(reported);
  const field = fieldOf(issue.path);
  return new ApiError('invalid_request', describe(issue, field), field);
}

// STYLE, Errors: the zod defaultHook builds the spec envelope; `field` is the issue's path.
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) {
    const first = result.error.issues[0];
    throw first ? issueToError(first) : new ApiError('invalid_request', 'the request is invalid');
  }
};
