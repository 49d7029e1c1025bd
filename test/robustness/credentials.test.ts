import { baseRequest, type Case, type Expect, type Group } from './cases';
import type { Operation } from './document';
import { walkOperations } from './run';
import { CREDENTIALS, IGNORED_AUTHORIZATIONS } from './values';

// Bad and odd credentials. spec, Authentication 7: missing, wrong or revoked credentials are 401
// unauthorized; spec, Errors: a workspace without an active subscription is 402 plan_required.

const unauthorized: Expect = { status: [401], code: 'unauthorized' };
const works: Expect = { not: [401, 402, 403] };
const answers = { refused: unauthorized, works, any: undefined };

function credentialCases(op: Operation): Case[] {
  const base = baseRequest(op);
  if (!op.secured) {
    // An operation that takes no credential (the control API) ignores whatever is sent.
    return IGNORED_AUTHORIZATIONS.map((value) => ({
      name: `Authorization: ${value.slice(0, 20)}`,
      ...base,
      headers: { ...base.headers, Authorization: value },
    }));
  }
  return [
    ...CREDENTIALS.map(([name, headers, answer]): Case => {
      const expect = answers[answer];
      return {
        name,
        who: 'nobody',
        ...base,
        headers: { ...base.headers, ...headers },
        ...(expect ? { expect } : {}),
      };
    }),
    { name: 'a revoked key', who: 'revoked', ...base, expect: unauthorized },
    {
      name: 'a workspace without a subscription',
      who: 'unpaid',
      ...base,
      expect: { status: [402], code: 'plan_required' },
    },
    ...(op.method === 'GET'
      ? [{ name: 'a read-only key may read', who: 'read' as const, expect: works }]
      : []),
  ];
}

const credentials: Group = { name: 'bad credentials', cases: credentialCases };

walkOperations(credentials);
