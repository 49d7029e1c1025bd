import { describe, expect, test } from 'vitest';
import { IdMap } from '../../src/clients/replay/ids';

const OLD = '11111111-1111-4111-8111-111111111111';
const NEW = '22222222-2222-4222-8222-222222222222';

describe('IdMap', () => {
  test('an id a create made is replaced, whole, in paths, queries and bodies', () => {
    const ids = new IdMap();
    ids.learn({ id: OLD, object: 'contact' }, { id: NEW, object: 'contact' });
    expect(ids.apply(`/contacts/${OLD}`)).toBe(`/contacts/${NEW}`);
    expect(ids.apply(`{"homeowner_id":"${OLD}","ids":["${OLD}"]}`)).toBe(
      `{"homeowner_id":"${NEW}","ids":["${NEW}"]}`,
    );
    // inside a longer word it is no id
    expect(ids.apply(`x${OLD}`)).toBe(`x${OLD}`);
    expect(ids.apply(`${OLD}_2`)).toBe(`${OLD}_2`);
    // ids are case-insensitive (decisions.md)
    expect(ids.apply(`/contacts/${OLD.toUpperCase()}`)).toBe(`/contacts/${NEW}`);
  });

  test('nested created ids follow: each subscription of an events list', () => {
    const ids = new IdMap();
    ids.learn(
      { object: 'list', data: [{ id: 'w1' }, { id: 'w2' }], secret: 's' },
      { object: 'list', data: [{ id: 'n1' }, { id: 'n2' }], secret: 't' },
    );
    expect(ids.apply('/webhooks/w1 /webhooks/w2')).toBe('/webhooks/n1 /webhooks/n2');
  });

  test('an id mapped once keeps its mapping: an idempotent retry maps to the same new id', () => {
    const ids = new IdMap();
    ids.learn({ id: OLD }, { id: NEW });
    ids.learn({ id: OLD }, { id: 'something-else' });
    expect(ids.get(OLD)).toBe(NEW);
    expect(ids.size).toBe(1);
  });

  test('an id that did not change maps nothing', () => {
    const ids = new IdMap();
    ids.learn({ id: OLD, job: { id: NEW } }, { id: OLD, job: { id: NEW } });
    expect(ids.size).toBe(0);
  });

  test('cursors follow: a recorded next_cursor is the replayed one, whole, in queries and bodies', () => {
    const ids = new IdMap();
    const X = 'WyIyMDI2LTExLTI1VDEwOjAwOjAwLjAwMFoiLCJhIl0.Qx-7_mac';
    const Y = 'WyIyMDI2LTExLTI2VDEwOjAwOjAwLjAwMFoiLCJiIl0.Zz-9_mac';
    ids.learnCursor({ object: 'list', next_cursor: X }, { object: 'list', next_cursor: Y });
    expect(ids.applyValue(X)).toBe(Y);
    expect(ids.apply(`{"cursor":"${X}"}`)).toBe(`{"cursor":"${Y}"}`);
    // a whole token only, and exactly: cursors are case-sensitive
    expect(ids.applyValue(`${X}x`)).toBe(`${X}x`);
    expect(ids.applyValue(X.toLowerCase())).toBe(X.toLowerCase());
    // a last page (null) or the same cursor maps nothing
    const none = new IdMap();
    none.learnCursor({ next_cursor: null }, { next_cursor: Y });
    none.learnCursor({ next_cursor: X }, { next_cursor: X });
    expect(none.applyValue(X)).toBe(X);
  });

  test('a cursor whose recorded page the log truncated follows the replayed page of that list', () => {
    const ids = new IdMap();
    ids.learnUnreadCursor('GET /v1/contacts?limit=50', { object: 'list', next_cursor: 'new.1' });
    expect(ids.applyCursor('GET /v1/jobs?limit=50', 'old.1')).toBe('old.1');
    expect(ids.applyCursor('GET /v1/contacts?limit=50', 'old.1')).toBe('new.1');
    // learnt: the same recorded cursor again is the same new one
    expect(ids.applyCursor('GET /v1/contacts?limit=50', 'old.1')).toBe('new.1');
  });
});
