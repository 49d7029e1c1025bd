import { expect, test } from 'vitest';
import { bodyCases } from './bodies';
import { type Case, fill } from './cases';
import { type Operation, operations } from './document';
import { environment } from './environment';
import { queryCases } from './query';
import { runAll } from './run';

// The request log keeps what the hostile requests sent (capped bodies, odd bytes, long queries);
// reading it back through the control API must not fault either.
const writeOp = operations.find((o) => o.base === '/v1' && o.json !== undefined && o.secured);
const logOp = operations.find(
  (o) => o.base === '/__admin' && o.method === 'GET' && o.path === '/requests',
);

test.skipIf(!writeOp || !logOp)('the request log of hostile requests reads back', async () => {
  const env = await environment();
  const [hostile, log] = [writeOp, logOp] as [Operation, Operation];
  await runAll(env, hostile, [...bodyCases(hostile), ...queryCases(hostile)]);
  const read = (query: Record<string, string>): Case => ({
    name: `GET /requests?${new URLSearchParams(query)}`,
    who: 'admin',
    query,
    expect: { status: [200] },
  });
  const problems = await runAll(env, log, [
    read({}),
    read({ workspace_id: env.workspaceId, limit: '200' }),
    read({ status: '4xx' }),
    read({ status: '400', method: hostile.method }),
    read({ path: fill(hostile.path, () => '') }),
    read({ limit: '1' }),
  ]);
  expect(problems).toEqual([]);
});
