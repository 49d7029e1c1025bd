// Where a webhook may point. spec, POST /webhooks: "The URL must be https, publicly reachable, not
// a private or link-local address"; decisions.md, Webhook subscriptions › Target checks, and the
// offline rule (a name that does not resolve is accepted). `--allow-local-targets` lifts it all.
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { describe, expect, test } from 'vitest';
import type { Harness } from '../support/harness';
import { app } from './setup';

// The default configuration (local targets not allowed), and one that allows them.
const strictApp = (): Harness => app();
const lenientApp = (): Harness => app({ allowLocalTargets: true });

async function refused(h: Harness, body: Record<string, unknown>, field: string): Promise<void> {
  const ws = await h.workspace();
  const res = await ws.api.post('/webhooks', body, { invalid: true });
  expect(res.status, res.text).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
  const list = await ws.api.get('/webhooks');
  expect(list.body.data).toEqual([]);
}

describe('without --allow-local-targets', () => {
  test.each([
    'http://93.184.216.34/hook',
    'http://hooks.example.com/hook',
    'ws://93.184.216.34/hook',
    'mailto:hooks@example.com',
    'file:///etc/passwd',
  ])('%s is refused: https only (field target_url)', async (url) => {
    await refused(strictApp(), { event: 'job.created', target_url: url }, 'target_url');
  });

  test.each([
    'https://localhost/',
    'https://LOCALHOST/hook',
    'https://localhost:8443/hook',
    'https://foo.localhost/',
    'https://a.b.localhost/hook',
    // A name ending in a dot is the same name, fully qualified (RFC 1034 §3.1).
    'https://localhost./',
    'https://foo.localhost./hook',
    'https://127.0.0.1/',
    'https://127.8.9.10/hook',
    'https://10.1.2.3/',
    'https://172.16.0.1/',
    'https://172.31.255.254/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://169.254.169.254/',
    'https://0.0.0.0/',
    'https://224.0.0.1/',
    'https://240.0.0.1/',
    'https://255.255.255.255/',
    // Documentation ranges (RFC 5737, RFC 3849) reach no one.
    'https://192.0.2.1/',
    'https://198.51.100.7/hook',
    'https://203.0.113.9/',
    'https://[2001:db8::1]/',
    // Other spellings of an IPv4 literal are that literal.
    'https://127.1/',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://[::1]/',
    'https://[::]/',
    'https://[fe80::1]/',
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    'https://[ff02::1]/',
    // IPv6 forms that carry a local IPv4 address reach that address: IPv4-mapped (the URL
    // parser writes it back as ::ffff:a00:1), IPv4-compatible ::/96, NAT64 64:ff9b::/96, 6to4.
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://[::ffff:192.168.1.1]/',
    'https://[::127.0.0.1]/',
    'https://[::10.0.0.1]/',
    'https://[::c0a8:101]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[64:ff9b::10.1.2.3]/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://[2002:7f00:1::]/',
    'https://[2002:c0a8:101::1]/',
    'https://[2002:a00:1:1::1]/',
  ])('%s is refused: not publicly reachable (field target_url)', async (url) => {
    await refused(strictApp(), { event: 'job.created', target_url: url }, 'target_url');
  });

  // Every address a name resolves to is checked. The machine's own name resolves through the
  // hosts file, to a loopback or private address on almost every machine; skipped where not.
  test("a host name that resolves to a local address (this machine's name) is refused", async ({
    skip,
  }) => {
    const name = hostname();
    const found = await lookup(name, { all: true }).catch(() => []);
    const local = (a: string) =>
      /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|fe80:|f[cd])/i.test(a);
    if (found.length === 0 || !found.every((a) => local(a.address)) || name.includes('_')) {
      skip();
    }
    await refused(
      strictApp(),
      { event: 'job.created', target_url: `https://${name}/hook` },
      'target_url',
    );
  });

  test.each([
    'http://93.184.216.34/hook',
    'https://localhost/',
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://192.168.1.1/',
  ])('%s sent as targetUrl is refused with field targetUrl', async (url) => {
    await refused(strictApp(), { event: 'job.created', targetUrl: url }, 'targetUrl');
  });

  test('a refused target fails whatever is subscribed (events, *)', async () => {
    await refused(
      strictApp(),
      { events: ['job.created', 'job.deleted'], target_url: 'https://10.0.0.5/hook' },
      'target_url',
    );
    await refused(strictApp(), { event: '*', target_url: 'https://127.0.0.1/' }, 'target_url');
  });

  test('a URL over 2048 characters is refused (field target_url)', async () => {
    const url = `https://93.184.216.34/${'a'.repeat(2048)}`;
    await refused(strictApp(), { event: 'job.created', target_url: url }, 'target_url');
  });

  test.each([
    'https://93.184.216.34/hook',
    'https://8.8.8.8:8443/in?x=1',
    'https://172.32.0.1/hook', // just outside 172.16/12
    'https://[2606:4700:4700::1111]/hook',
    // The same forms carrying a public IPv4 address are as public as it is.
    'https://[::ffff:93.184.216.34]/hook',
    'https://[64:ff9b::8.8.8.8]/hook',
    'https://[2002:5db8:d822::1]/hook',
  ])('a public IP literal %s is accepted', async (url) => {
    const ws = await strictApp().workspace();
    const res = await ws.api.post('/webhooks', { event: 'job.created', target_url: url });
    expect(res.status, res.text).toBe(201);
    expect(res.body.target_url).toBe(url);
  });

  test('a host name that does not resolve is accepted (svc runs offline)', async () => {
    const ws = await strictApp().workspace();
    const url = 'https://no-such-host.invalid/hook';
    const res = await ws.api.post('/webhooks', { event: 'job.created', target_url: url });
    expect(res.status, res.text).toBe(201);
    expect(res.body.target_url).toBe(url);
    expect(res.body.secret).toMatch(/^whsec_/);
  });
});

describe('with --allow-local-targets', () => {
  test.each([
    'http://127.0.0.1:9/x',
    'https://localhost/hook',
    'http://192.168.1.1/hook',
    'http://[::1]:8080/hook',
  ])('%s is accepted', async (url) => {
    const ws = await lenientApp().workspace();
    const res = await ws.api.post('/webhooks', { event: 'job.created', target_url: url });
    expect(res.status, res.text).toBe(201);
    expect(res.body.target_url).toBe(url);
  });

  test.each(['ftp://127.0.0.1/x', 'not a url'])(
    '%s is still refused (field target_url)',
    async (url) => {
      await refused(lenientApp(), { event: 'job.created', target_url: url }, 'target_url');
    },
  );
});
