// svc webhook listen against a real svc serve, end to end: DESIGN, Product surface (`svc webhook
// listen` verifies signatures) and Fixed contract (`--allow-local-targets` lets a receiver on
// 127.0.0.1 subscribe); spec, Delivery headers and Signature verification. The listener
// subscribes itself with --server and --key, verifies what the server signs, and deletes its
// subscription when it stops. Only the two processes started here are ever signalled.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import {
  BIN,
  cleanup,
  collect,
  type Exit,
  http,
  spawnNode,
  startServe,
  tempDir,
} from '../support/spawn';

afterEach(cleanup);

const LISTEN_READY = /^svc webhook listen on (http:\/\/127\.0\.0\.1:\d+)$/m;
const WAIT_MS = 10_000;

/** Resolves with the first match of `pattern` in `out()`; fails on the child's exit or after 10 s. */
function printed(
  child: ChildProcess,
  out: () => string,
  pattern: RegExp,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + WAIT_MS;
    const poll = () => {
      const found = pattern.exec(out());
      if (found) {
        resolve(found);
      } else if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`exited before printing ${pattern}:\n${out()}`));
      } else if (Date.now() > deadline) {
        reject(new Error(`did not print ${pattern} within ${WAIT_MS} ms:\n${out()}`));
      } else {
        setTimeout(poll, 20);
      }
    };
    poll();
  });
}

/** Signals this child (by its PID) and waits, at most 10 s, for it to exit. */
function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<Exit> {
  const exited = new Promise<Exit>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
    } else {
      child.once('exit', (code, sig) => resolve({ code, signal: sig }));
    }
  });
  child.kill(signal);
  const late = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`pid ${child.pid} did not exit within 10 s`)),
      10_000,
    ).unref(),
  );
  return Promise.race([exited, late]);
}

/** `7b0c…a11`: how the listener prints a record id. */
const shortId = (id: string) => `${id.slice(0, 4)}…${id.slice(-3)}`;

test('a real listener verifies what a real svc serve signs, and its subscription goes with SIGINT', async () => {
  const dir = await tempDir();
  const server = await startServe(join(dir, 'data.json'), ['--no-seed', '--allow-local-targets']);
  const made = await http(`${server.url}/__admin/workspaces`, {
    method: 'POST',
    body: { name: 'Listen', profile: 'empty' },
  });
  expect(made.status).toBe(201);
  const key: string = made.body.keys.write.key;

  const listener = spawnNode([
    BIN,
    'webhook',
    'listen',
    '--port',
    '0',
    '--server',
    server.url,
    '--key',
    key,
    '--events',
    'job.created',
  ]);
  const out = collect(listener);
  await printed(listener, out.stdout, LISTEN_READY);
  const subscribed = await http(`${server.url}/v1/webhooks`, { key });
  expect(subscribed.body.data).toHaveLength(1);
  expect(subscribed.body.data[0]).toMatchObject({ event: 'job.created' });

  const job = await http(`${server.url}/v1/jobs`, {
    method: 'POST',
    key,
    body: { name: 'Listened roof', address: '3 Elm St' },
  });
  expect(job.status).toBe(201);
  // `verified`: the signature checked out against the secret the subscription returned.
  const line = new RegExp(
    `^\\d\\d:\\d\\d:\\d\\d job\\.created ${shortId(job.body.id)} attempt 1 verified, answered 200$`,
    'm',
  );
  await printed(listener, out.stdout, line);

  expect(await stop(listener, 'SIGINT')).toEqual({ code: 0, signal: null });
  const left = await http(`${server.url}/v1/webhooks`, { key });
  expect(left.status).toBe(200);
  expect(left.body.data).toEqual([]);
  expect((await server.stop()).code).toBe(0);
});
