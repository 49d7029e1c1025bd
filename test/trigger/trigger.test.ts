import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifySignature } from '../../src/clients/listen/signature';
import { type Inbox, type Receiver, startReceiver } from '../../src/clients/scenario';
import type { Received } from '../../src/clients/scenario/receiver';
import { parseOverride, recipeFile, TriggerUsage, trigger } from '../../src/clients/trigger';
import { EVENTS } from '../../src/events/catalogue';
import { defaultConfig } from '../../src/runtime';
import { type RunningServer, startServer } from '../../src/server';

// svc trigger for every event of the catalogue, through the exported function against one svc
// in-process: a receiver subscribed to * gets the event the trigger reports, signed.

let dir: string;
let svc: RunningServer;
let receiver: Receiver;
let inbox: Inbox;
let secret: string;
let ws: { id: string; write: string };

async function admin(
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${svc.url}/__admin${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-trigger-test-'));
  svc = await startServer({
    port: 0,
    host: '127.0.0.1',
    data: join(dir, 'data.json'),
    seed: false,
    config: defaultConfig({ allowLocalTargets: true, rateLimit: null, log: () => {} }),
  });
  const made = await admin('/workspaces', { name: 'trigger test' });
  const keys = made.body.keys as { write: { key: string } };
  ws = { id: String(made.body.id), write: keys.write.key };
  receiver = await startReceiver();
  inbox = receiver.open();
  const hook = await fetch(`${svc.url}/v1/webhooks`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ws.write}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ event: '*', target_url: inbox.url }),
  });
  secret = ((await hook.json()) as { secret: string }).secret;
});

afterAll(async () => {
  await receiver.close();
  await svc.close();
  await rm(dir, { recursive: true, force: true });
});

/** The delivery of `eventId` at the receiver (waiting up to 3 s), and whether its signature holds. */
async function arrived(
  eventId: string,
): Promise<{ received: Received; verdict: string } | undefined> {
  const received = await inbox.waitFor(
    () => inbox.received.find((r) => (r.body as { event_id?: string }).event_id === eventId),
    3000,
  );
  if (!received) {
    return undefined;
  }
  const verdict = verifySignature({
    header: received.headers['x-service-signature'],
    body: received.raw,
    secrets: [secret],
    nowSeconds: Math.floor(Date.now() / 1000),
    toleranceSeconds: 300,
  });
  return { received, verdict };
}

describe('svc trigger, every event of the catalogue', () => {
  test('there is one recipe per event', async () => {
    const { existsSync } = await import('node:fs');
    const missing = EVENTS.map((e) => e.event).filter((e) => !existsSync(recipeFile(e)));
    expect(missing).toEqual([]);
  });

  test.each(EVENTS.map((e) => e.event))(
    '%s reaches a subscribed receiver, signed',
    async (event) => {
      const lines: string[] = [];
      const result = await trigger({
        event,
        server: svc.url,
        key: ws.write,
        out: (l) => lines.push(l),
      });
      expect(result.failure?.message).toBeUndefined();
      expect(result.subscribed).toBe(1);
      const [delivery] = result.deliveries;
      expect(delivery, lines.join('\n')).toMatchObject({ state: 'succeeded', status_code: 200 });
      const got = await arrived(delivery?.event_id ?? '');
      expect(got?.received.event).toBe(event);
      expect(got?.verdict).toBe('ok');
      expect(lines).toContain(`deliveries of ${event}:`);
    },
  );
});

describe('svc trigger --override', () => {
  test('an override shows in the record the delivery carries', async () => {
    const name = `Override ${Date.now()}`;
    const result = await trigger({
      event: 'job.created',
      server: `${svc.url}/v1`,
      key: ws.write,
      overrides: [parseOverride(`name=${name}`), parseOverride('priority="high"')],
    });
    const got = await arrived(result.deliveries[0]?.event_id ?? '');
    expect(got?.received.body).toMatchObject({ event_type: 'job.created', name, priority: 'high' });
  });

  test('a contact type override changes the contact the event carries', async () => {
    const result = await trigger({
      event: 'contact.created',
      server: svc.url,
      key: ws.write,
      overrides: [parseOverride('type=adjuster'), parseOverride('first_name=Zed')],
    });
    const got = await arrived(result.deliveries[0]?.event_id ?? '');
    expect(got?.received.body).toMatchObject({ type: 'adjuster', first_name: 'Zed' });
  });

  test('on an upload recipe, an override sets a form field of the upload', async () => {
    const result = await trigger({
      event: 'file.created',
      server: svc.url,
      key: ws.write,
      overrides: [parseOverride('description=Ridge vent'), parseOverride('category=photo')],
    });
    const got = await arrived(result.deliveries[0]?.event_id ?? '');
    expect(got?.received.body).toMatchObject({ description: 'Ridge vent', category: 'photo' });
  });

  test('field=value parses: dotted fields nest, JSON values keep their type, else text', () => {
    expect(parseOverride('name=Roof')).toEqual({ field: 'name', value: 'Roof' });
    expect(parseOverride('amount=12.5')).toEqual({ field: 'amount', value: 12.5 });
    expect(parseOverride('tags=["a","b"]')).toEqual({ field: 'tags', value: ['a', 'b'] });
    expect(parseOverride('a.b=null')).toEqual({ field: 'a.b', value: null });
    expect(parseOverride('note=x=y')).toEqual({ field: 'note', value: 'x=y' });
    expect(() => parseOverride('novalue')).toThrow(/field=value/);
    expect(() => parseOverride('a..b=1')).toThrow(/field=value/);
  });
});

describe('svc trigger, where and as whom', () => {
  test('--workspace makes a key there; with no subscription it says so', async () => {
    const other = await admin('/workspaces', { name: 'quiet' });
    const lines: string[] = [];
    const result = await trigger({
      event: 'note.created',
      server: svc.url,
      workspace: String(other.body.id),
      out: (l) => lines.push(l),
    });
    expect(result.workspaceId).toBe(other.body.id);
    expect(result.failure).toBeUndefined();
    expect(lines).toContain('no subscription in this workspace receives note.created');
    expect(lines.some((l) => /^ {2}POST \/notes -> 201 note [0-9a-f-]{36}$/.test(l))).toBe(true);
  });

  test('with neither --workspace nor --key it acts in the first workspace', async () => {
    const result = await trigger({ event: 'task.created', server: svc.url });
    expect(result.workspaceId).toBe(ws.id);
    expect(result.deliveries).toHaveLength(1);
  });

  test('an unknown event is a usage error listing the events', async () => {
    const err = await trigger({ event: 'job.exploded', server: svc.url }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(TriggerUsage);
    expect((err as Error).message).toContain(
      'unknown event job.exploded; the events are: job.created,',
    );
  });

  test('a server without the control API is a usage error', async () => {
    const err = await trigger({ event: 'job.created', server: inbox.url }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(TriggerUsage);
    expect((err as Error).message).toMatch(/is not a svc \(no control API/);
  });

  test('a workspace that does not exist is a usage error', async () => {
    const err = await trigger({
      event: 'job.created',
      server: svc.url,
      workspace: '00000000-0000-4000-8000-000000000000',
    }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(TriggerUsage);
  });

  test('a step that fails stops the recipe and is reported', async () => {
    const result = await trigger({
      event: 'job.created',
      server: svc.url,
      key: ws.write,
      overrides: [parseOverride('job_type=spaceship')],
    });
    expect(result.failure?.message).toMatch(
      /status: expected a 2xx or 3xx, got 400 invalid_request \(field job_type\)/,
    );
    expect(result.deliveries).toEqual([]);
  });
});
