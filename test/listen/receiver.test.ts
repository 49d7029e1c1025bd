import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { createDedupe } from '../../src/clients/listen/dedupe';
import { createReceiver, formatLine, type Outcome } from '../../src/clients/listen/receiver';
import { createResponder } from '../../src/clients/listen/responder';

const SECRET = 'whsec_receiver_test';
const NOW_MS = 1_800_000_000_000;
const NOW = NOW_MS / 1000;
const RECORD = '7b0c4d2e-1111-4222-8333-94445555aa11';

function delivery(eventId: string, opts: { secret?: string; t?: number; attempt?: number } = {}) {
  const t = opts.t ?? NOW;
  const raw = Buffer.from(
    JSON.stringify({
      id: RECORD,
      object: 'job',
      event_type: 'job.stage_changed',
      event_id: eventId,
    }),
  );
  const v1 = createHmac('sha256', opts.secret ?? SECRET)
    .update(`${t}.${raw.toString()}`)
    .digest('hex');
  return {
    raw,
    headers: {
      'x-service-signature': `t=${t},v1=${v1}`,
      'x-service-event': 'job.stage_changed',
      'x-service-delivery': eventId,
      'x-service-attempt': String(opts.attempt ?? 1),
      'content-type': 'application/json',
    },
  };
}

const receiver = (statuses: number[], verify = true) =>
  createReceiver({
    verify,
    secrets: verify ? [SECRET] : [],
    toleranceSeconds: 300,
    responder: createResponder(statuses),
    dedupe: createDedupe(),
  });

const answers = (outcomes: Outcome[]) => outcomes.map((o) => `${o.verdict} ${o.status}`);

describe('createReceiver', () => {
  test('a verified delivery is ok 200 by default and carries the body fields the line needs', () => {
    const outcome = receiver([200])(delivery('e1', { attempt: 2 }), NOW_MS);
    expect(outcome).toMatchObject({
      verdict: 'ok',
      status: 200,
      fresh: true,
      event: 'job.stage_changed',
      eventId: 'e1',
      recordId: RECORD,
      attempt: '2',
      test: false,
    });
    expect(outcome.body).toMatchObject({ id: RECORD, event_id: 'e1' });
  });

  test('--respond 500,500,200 acts out svc retrying one event: the retries after a 500 are processed, not duplicates', () => {
    const receive = receiver([500, 500, 200]);
    const outcomes = [1, 2, 3, 4].map((attempt) => receive(delivery('e1', { attempt }), NOW_MS));
    expect(answers(outcomes)).toEqual(['ok 500', 'ok 500', 'ok 200', 'duplicate 200']);
  });

  test('a repeat of an acknowledged event id is a duplicate, answered with the 2xx the first got, and not fresh', () => {
    const receive = receiver([201, 202, 503]);
    const outcomes = [
      receive(delivery('e1'), NOW_MS),
      receive(delivery('e2'), NOW_MS),
      receive(delivery('e1'), NOW_MS),
      receive(delivery('e2'), NOW_MS),
    ];
    expect(answers(outcomes)).toEqual(['ok 201', 'ok 202', 'duplicate 201', 'duplicate 202']);
    expect(outcomes.map((o) => o.fresh)).toEqual([true, true, false, false]);
  });

  test('a duplicate does not use up the --respond sequence', () => {
    const receive = receiver([200, 500]);
    const outcomes = [
      receive(delivery('e1'), NOW_MS),
      receive(delivery('e1'), NOW_MS),
      receive(delivery('e2'), NOW_MS),
    ];
    expect(answers(outcomes)).toEqual(['ok 200', 'duplicate 200', 'ok 500']);
  });

  test('without verification every delivery is unverified, whatever its signature, and still deduped', () => {
    const receive = receiver([200], false);
    const outcomes = [
      receive(delivery('e1', { secret: 'whsec_wrong' }), NOW_MS),
      receive({ ...delivery('e2'), headers: {} }, NOW_MS),
      receive(delivery('e1'), NOW_MS),
    ];
    expect(answers(outcomes)).toEqual(['unverified 200', 'unverified 200', 'duplicate 200']);
    expect(outcomes.map((o) => o.fresh)).toEqual([true, true, false]);
  });

  test('a rejected delivery is 400, not verified, and does not use up the --respond sequence', () => {
    const receive = receiver([500, 200]);
    const outcomes = [
      receive(delivery('e1', { secret: 'whsec_wrong' }), NOW_MS),
      receive(delivery('e1', { t: NOW - 301 }), NOW_MS),
      receive({ ...delivery('e1'), headers: {} }, NOW_MS),
      receive(delivery('e1'), NOW_MS),
    ];
    expect(answers(outcomes)).toEqual([
      'bad-signature 400',
      'stale-timestamp 400',
      'missing-signature 400',
      'ok 500',
    ]);
    expect(outcomes.slice(0, 3).every((o) => !o.fresh)).toBe(true);
  });

  test('a rejected delivery is never remembered: the genuine one after it is not a duplicate', () => {
    const receive = receiver([200]);
    receive(delivery('e1', { secret: 'whsec_wrong' }), NOW_MS);
    expect(receive(delivery('e1'), NOW_MS).verdict).toBe('ok');
  });

  test('secrets added after start (a subscription made with --server) verify from then on', () => {
    const secrets: string[] = [];
    const receive = createReceiver({
      verify: true,
      secrets,
      toleranceSeconds: 300,
      responder: createResponder([200]),
      dedupe: createDedupe(),
    });
    expect(receive(delivery('e1'), NOW_MS).verdict).toBe('bad-signature');
    secrets.push(SECRET);
    expect(receive(delivery('e1'), NOW_MS).verdict).toBe('ok');
  });

  test('a body that is not JSON is kept as text', () => {
    const raw = Buffer.from('not json');
    const v1 = createHmac('sha256', SECRET).update(`${NOW}.not json`).digest('hex');
    const outcome = receiver([200])(
      { raw, headers: { 'x-service-signature': `t=${NOW},v1=${v1}` } },
      NOW_MS,
    );
    expect(outcome).toMatchObject({ verdict: 'ok', body: 'not json', recordId: undefined });
  });
});

describe('formatLine', () => {
  const at = new Date(2026, 0, 2, 12, 4, 5);
  const base: Outcome = {
    verdict: 'ok',
    status: 200,
    fresh: true,
    event: 'job.stage_changed',
    eventId: 'e1',
    recordId: RECORD,
    attempt: '2',
    test: false,
    body: {},
    diagnosis: undefined,
  };

  test('one line: local time, event, shortened record id, attempt, what it was and what it answered', () => {
    expect(formatLine(base, at)).toBe(
      '12:04:05 job.stage_changed 7b0c…a11 attempt 2 verified, answered 200',
    );
  });

  test.each([
    ['ok', 500, 'verified, answered 500'],
    ['unverified', 200, 'unverified, answered 200'],
    ['duplicate', 201, 'duplicate, answered 201'],
    ['missing-signature', 400, 'missing signature, answered 400'],
    ['malformed-signature', 400, 'malformed signature, answered 400'],
    ['bad-signature', 400, 'bad signature, answered 400'],
    ['stale-timestamp', 400, 'stale timestamp, answered 400'],
  ] as const)('the line says verdict %s answered %i in words: %s', (verdict, status, words) => {
    expect(formatLine({ ...base, verdict, status }, at)).toBe(
      `12:04:05 job.stage_changed 7b0c…a11 attempt 2 ${words}`,
    );
  });

  test('a test send is marked, and missing fields show as - and ?', () => {
    const line = formatLine(
      { ...base, test: true, event: undefined, recordId: undefined, attempt: undefined },
      at,
    );
    expect(line).toBe('12:04:05 - - attempt ? verified, answered 200 (test send)');
  });

  test('a dropped delivery says so instead of a status; a chaos marker and a diagnosis follow', () => {
    const diagnosis = { kind: 'another-secret', text: 'signed with another secret' } as const;
    expect(formatLine({ ...base, status: null }, at, 'held #3')).toBe(
      '12:04:05 job.stage_changed 7b0c…a11 attempt 2 verified, dropped (no answer), held #3',
    );
    expect(formatLine({ ...base, verdict: 'bad-signature', status: 400, diagnosis }, at)).toBe(
      '12:04:05 job.stage_changed 7b0c…a11 attempt 2 bad signature, answered 400; signed with another secret',
    );
  });

  test('control characters and spaces from the network cannot break the line or the terminal', () => {
    const line = formatLine({ ...base, recordId: 'a\u001b[2Jb\nc d', event: 'x y' }, at);
    expect(line).toBe('12:04:05 x?y a?[2Jb?c?d attempt 2 verified, answered 200');
  });
});
