import { randomUUID } from 'node:crypto';
import { baseRequest, type Case, concrete, type Group, invalid, isWrite } from './cases';
import type { Operation } from './document';
import { walkOperations } from './run';

// Bad Idempotency-Keys. spec, Limits: a key is at most 255 characters; a replay is the first
// answer.

const key = (length: number) => 'i'.repeat(length);

// spec, Limits: a replay is the first answer; an error's request_id must still be the
// X-Request-Id of the answer that carries it.
function replayCases(op: Operation, base: Partial<Case>): Case[] {
  const path = concrete(op);
  const failing = op.json === undefined ? base : { body: '{' };
  const replayKey = `replay-${randomUUID()}`;
  return ['first', 'replayed'].map((attempt) => ({
    name: `a failing request, ${attempt}, under one Idempotency-Key`,
    path,
    ...failing,
    headers: { ...base.headers, 'Idempotency-Key': replayKey },
  }));
}

function idempotencyCases(op: Operation): Case[] {
  if (op.base !== '/v1' || !op.secured) {
    return [];
  }
  const base = baseRequest(op);
  if (!isWrite(op)) {
    // spec, Endpoints: the header applies to POST, PATCH and DELETE; elsewhere it means nothing.
    return [
      {
        name: 'an Idempotency-Key of 10000 characters on a read',
        headers: { 'Idempotency-Key': key(10_000) },
        expect: { notField: 'Idempotency-Key' },
      },
    ];
  }
  const tooLong = invalid(op, 'Idempotency-Key');
  const cases: Case[] = [
    { n: 256, expect: tooLong },
    { n: 10_000, expect: tooLong },
    { n: 255, expect: { notField: 'Idempotency-Key' } },
  ].map(({ n, expect: e }) => ({
    name: `an Idempotency-Key of ${n} characters`,
    ...base,
    headers: { ...base.headers, 'Idempotency-Key': key(n) },
    expect: e,
  }));
  cases.push({
    name: 'an empty Idempotency-Key',
    ...base,
    headers: { ...base.headers, 'Idempotency-Key': '' },
  });
  return [...cases, ...replayCases(op, base)];
}

const idempotencyKeys: Group = { name: 'bad Idempotency-Keys', cases: idempotencyCases };

walkOperations(idempotencyKeys);
