import { describe, expect, test } from 'vitest';
import { createDedupe } from '../../src/clients/listen/dedupe';
import { createResponder } from '../../src/clients/listen/responder';

const play = (statuses: number[], times: number) => {
  const responder = createResponder(statuses);
  return Array.from({ length: times }, () => responder.next());
};

describe('createResponder', () => {
  test.each([
    ['a single value applies to every delivery', [200], [200, 200, 200, 200]],
    ['a single 500 applies to every delivery', [500], [500, 500, 500, 500]],
    [
      'a sequence plays in order, then its last value repeats',
      [500, 500, 200],
      [500, 500, 200, 200],
    ],
    ['a sequence can end on a failure', [200, 503], [200, 503, 503, 503]],
  ])('%s', (_rule, statuses, answers) => {
    expect(play(statuses, 4)).toEqual(answers);
  });

  test('an empty sequence is refused', () => {
    expect(() => createResponder([])).toThrow();
  });
});

describe('createDedupe', () => {
  test('an id is seen only once remembered, with the 2xx it was acknowledged with', () => {
    const dedupe = createDedupe();
    expect(dedupe.seen('e1')).toBeUndefined();
    dedupe.remember('e1', 202);
    expect(dedupe.seen('e1')).toBe(202);
    expect(dedupe.seen('e2')).toBeUndefined();
  });

  test('past its capacity the oldest id is forgotten first', () => {
    const dedupe = createDedupe(2);
    dedupe.remember('e1', 200);
    dedupe.remember('e2', 200);
    dedupe.remember('e1', 200); // seen again: now the newest
    dedupe.remember('e3', 200);
    expect(dedupe.seen('e2')).toBeUndefined();
    expect(dedupe.seen('e1')).toBe(200);
    expect(dedupe.seen('e3')).toBe(200);
  });
});
