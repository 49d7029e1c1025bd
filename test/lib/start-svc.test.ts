import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { type Svc, SvcError, startSvc } from '../../src/lib';
import { Receiver } from '../support/receiver';
import { tempDir } from '../support/spawn';

// Issue 38: `startSvc()` from a test suite's own setup: svc (a child process, or the same server
// in this process), a workspace of its own with its keys and control token, and the control API's
// tools (clocks, faults, the request and delivery logs, OAuth without a browser) as calls.

const api = (svc: Svc, key: string, path: string, init: RequestInit = {}) =>
  fetch(`${svc.baseUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  });

const JOB = {
  name: 'Lib job',
  address: '1 Main St',
  city: 'Dallas',
  state: 'TX',
  postal_code: '75201',
};

for (const inProcess of [false, true]) {
  describe(`startSvc({ inProcess: ${inProcess} })`, () => {
    let svc: Svc;
    let receiver: Receiver;
    afterAll(async () => {
      await svc?.stop();
      await receiver?.close();
    });

    test('answers where svc is and a workspace of its own whose keys work', async () => {
      svc = await startSvc({ inProcess, profile: 'small', seed: 7, allowLocalTargets: true });
      expect(svc.baseUrl).toBe(`${svc.appUrl}/v1`);
      expect(svc.appUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(inProcess ? svc.pid === process.pid : svc.pid !== process.pid).toBe(true);
      const ping = await api(svc, svc.workspace.keys.write, '/ping');
      expect(ping.status).toBe(200);
      const jobs = (await (await api(svc, svc.workspace.keys.read, '/jobs')).json()) as {
        data: unknown[];
      };
      expect(jobs.data.length).toBeGreaterThan(0); // the small profile
      expect(svc.workspace.controlToken).toMatch(/^svc_ctl_/);
      const denied = await api(svc, svc.workspace.keys.read, '/jobs', {
        method: 'POST',
        body: JSON.stringify(JOB),
      });
      expect(denied.status).toBe(403);
    });

    test("a workspace's clock moves alone; the server's moves every workspace", async () => {
      const other = await svc.newWorkspace({ name: 'Other' });
      const before = Date.parse(await other.clock.now());
      const moved = Date.parse(await svc.workspace.clock.advance(86_400));
      expect(moved - before).toBeGreaterThanOrEqual(86_400_000);
      expect(Date.parse(await other.clock.now()) - before).toBeLessThan(60_000);
      const set = new Date(Date.parse(await svc.clock.now()) + 3 * 86_400_000);
      await svc.clock.set(set);
      expect(Date.parse(await other.clock.now())).toBeGreaterThanOrEqual(set.getTime());
      await other.delete();
      await expect(other.clock.now()).rejects.toMatchObject({ status: 404, code: 'not_found' });
    });

    test('faults fire on the calls they match; clear says how many it removed', async () => {
      const fault = await svc.faults.add({
        match: { path: '/jobs', workspace_id: svc.workspace.id },
        action: { status: 503 },
        times: 1,
      });
      expect(fault).toMatchObject({ object: 'fault', state: 'active', remaining: 1 });
      expect((await api(svc, svc.workspace.keys.read, '/jobs')).status).toBe(503);
      expect((await api(svc, svc.workspace.keys.read, '/jobs')).status).toBe(200);
      expect(await svc.faults.clear()).toBe(1);
    });

    test("a refusal is a SvcError with the envelope's code and field", async () => {
      const err = await svc.faults.add({ match: {}, action: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SvcError);
      expect(err).toMatchObject({ status: 400, code: 'invalid_request', field: 'action' });
    });

    test('requests() reads the request log with its filters, every page', async () => {
      for (let i = 0; i < 3; i++) {
        await api(svc, svc.workspace.keys.read, `/contacts?limit=${i + 1}`);
      }
      const calls = await svc.requests({ workspace_id: svc.workspace.id, path: '/contacts' });
      expect(calls.map((c) => c.query.limit)).toEqual(['3', '2', '1']);
      expect(calls[0]).toMatchObject({
        method: 'GET',
        status: 200,
        key_id: svc.workspace.keyIds.read,
      });
    });

    test("deliveries() reads a subscription's delivery log, every attempt", async () => {
      receiver = await Receiver.start();
      const hook = (await (
        await api(svc, svc.workspace.keys.write, '/webhooks', {
          method: 'POST',
          body: JSON.stringify({ event: 'job.created', target_url: receiver.url }),
        })
      ).json()) as { id: string };
      await api(svc, svc.workspace.keys.write, '/jobs', {
        method: 'POST',
        body: JSON.stringify(JOB),
      });
      await receiver.waitFor(1);
      let log = await svc.deliveries(hook.id);
      for (let i = 0; i < 50 && log[0]?.state !== 'succeeded'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        log = await svc.deliveries(hook.id);
      }
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ event: 'job.created', state: 'succeeded' });
      expect(log[0]?.attempts[0]?.status_code).toBe(200);
    });

    test('oauth.authorize gives the code the consent page would, and it trades for a token', async () => {
      const app = (await (
        await fetch(`${svc.appUrl}/__admin/oauth/apps`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'Lib app', redirect_uris: ['https://app.example/cb'] }),
        })
      ).json()) as { client_id: string; client_secret: string };
      const { location } = await svc.oauth.authorize({
        client_id: app.client_id,
        redirect_uri: 'https://app.example/cb',
        state: 's1',
        workspace_id: svc.workspace.id,
        decision: 'allow',
      });
      const code = new URL(location).searchParams.get('code') ?? '';
      const token = await fetch(`${svc.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'https://app.example/cb',
          client_id: app.client_id,
          client_secret: app.client_secret,
        }).toString(),
      });
      expect(token.status).toBe(200);
    });

    test('stop() stops svc, removes what it made, and may be called twice', async () => {
      const { appUrl } = svc;
      await Promise.all([svc.stop(), svc.stop()]);
      await expect(fetch(`${appUrl}/v1/ping`)).rejects.toThrow();
    });
  });
}

describe('a child svc never outlives its parent', () => {
  for (const end of ['SIGTERM', 'SIGKILL', 'process.exit'] as const) {
    test(`the parent ended by ${end}: svc stops and its temporary folder goes`, async () => {
      const script = `
        const { startSvc } = require(${JSON.stringify(join(import.meta.dirname, '..', '..', 'dist', 'lib.cjs'))});
        startSvc().then((svc) => {
          console.log(JSON.stringify({ appUrl: svc.appUrl, pid: svc.pid }));
          ${end === 'process.exit' ? 'setTimeout(() => process.exit(0), 100);' : 'setInterval(() => {}, 1000);'}
        });`;
      const { spawn } = await import('node:child_process');
      const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        parent.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) {
            resolve(out.trim());
          }
        });
        parent.once('exit', () => reject(new Error(`the parent exited first: ${out}`)));
      });
      const { appUrl, pid } = JSON.parse(line) as { appUrl: string; pid: number };
      expect((await fetch(`${appUrl}/__admin/clock`)).status).toBe(200);
      // The folder the library made: where svc's --data lies.
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      const folder = dirname(argv[argv.indexOf('--data') + 1] ?? '');
      expect(existsSync(folder)).toBe(true);
      if (end !== 'process.exit') {
        parent.kill(end);
      }
      const alive = () => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      for (let i = 0; i < 200 && alive(); i++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(alive(), 'svc stopped with its parent').toBe(false);
      expect(existsSync(folder), 'and took its folder along').toBe(false);
    });
  }
});

describe('startSvc options', () => {
  test('a data file given is kept after stop, with the workspace made in it', async () => {
    const data = join(await tempDir(), 'kept.json');
    const svc = await startSvc({ data, inProcess: true });
    const { id } = svc.workspace;
    await svc.stop();
    expect(existsSync(data)).toBe(true);
    const again = await startSvc({ data, inProcess: true });
    const list = (await (await fetch(`${again.appUrl}/__admin/workspaces`)).json()) as {
      data: { id: string }[];
    };
    expect(list.data.map((w) => w.id)).toContain(id);
    await again.stop();
  });

  test('a wrong option is a TypeError naming it, and nothing is started', async () => {
    await expect(startSvc({ port: -1 })).rejects.toThrow(/port/);
    await expect(startSvc({ rateLimit: 0 })).rejects.toThrow(/rateLimit/);
    await expect(startSvc({ profile: 'huge' as 'demo' })).rejects.toThrow(/profile/);
  });
});
