import { describe, expect, test } from 'vitest';
import { newId } from '../../../src/platform/ids';
import { leased } from '../../../src/store/held';
import { verify } from '../../support/receiver';
import {
  advance,
  createJob,
  jobCreatedHook,
  log,
  setup,
  signatureOf,
  subscribe,
} from '../../webhooks/setup';
import {
  ESCAPED,
  expectRefused,
  linksResolve,
  noticeOf,
  open,
  openOk,
  SCRIPT_NAME,
  shownOf,
  submit,
  tokenFor,
} from './support';

// spec, Receiver responses: the subscriptions, their delivery logs with every attempt, and the
// settings' actions (resend, test, rotate, re-enable), each the control API's service.

/** A subscription with one delivery attempted: what most tests start from. */
async function delivered(answer?: Parameters<typeof jobCreatedHook>[0]) {
  const made = await jobCreatedHook(answer);
  await createJob(made.ws, SCRIPT_NAME);
  await advance(made.h, 0);
  await made.r.waitFor(1);
  return made;
}

describe('/inspector/webhooks', () => {
  test('lists the subscriptions of a workspace, and the owners’ notifications, escaped', async () => {
    const { h, ws, hook } = await delivered();
    // A notification as the worker writes one when it switches a subscription off.
    // Under the workspace's lease, as the worker writes, where several nodes serve.
    await leased(h.rt.store, [ws.id], () =>
      h.rt.store.transaction((tx) =>
        tx.workspace(ws.id).put('notifications', {
          id: newId(),
          object: 'notification',
          kind: 'webhook_disabled',
          webhook_id: hook.id,
          user_ids: [],
          message: `Switched off: ${SCRIPT_NAME}`,
          created_at: h.rt.clock.iso(),
        }),
      ),
    );
    const page = await openOk(h, `/inspector/webhooks?workspace_id=${ws.id}`);
    expect(page.html).toContain(`/inspector/webhooks/${hook.id}`);
    expect(page.html).toContain(`Switched off: ${ESCAPED}`);
    expect(page.html).not.toContain(SCRIPT_NAME);
    await linksResolve(h, page);
    const other = await openOk(
      h,
      '/inspector/webhooks?workspace_id=00000000-0000-4000-8000-000000000000',
    );
    expect(other.html).not.toContain(hook.id);
  });
});

describe('/inspector/webhooks/{id}', () => {
  test('shows each delivery with every attempt: status, duration, snippet and the signature sent', async () => {
    const { h, r, hook } = await delivered(() => ({ status: 200, body: 'thanks <b>ok</b>' }));
    const page = await openOk(h, `/inspector/webhooks/${hook.id}`);
    const [d] = await log(h, hook.id);
    expect(page.html).toContain(d.id);
    expect(page.html).toContain('<span class="badge ok">200</span>');
    expect(page.html).toContain('thanks &lt;b&gt;ok&lt;/b&gt;');
    const sent = signatureOf(r.received[0]);
    expect(d.attempts[0].signature).toBe(sent);
    expect(page.html).toContain(sent);
    expect(verify(hook.secret, sent, r.received[0]?.body ?? '')).toBe(true);
    await linksResolve(h, page);
    expect((await open(h, '/inspector/webhooks/00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
  });

  test('resend sends the same event again at once and the new attempt is on the page', async () => {
    const { h, r, hook } = await delivered();
    const [original] = await log(h, hook.id);
    const path = `/inspector/webhooks/${hook.id}`;
    const landed = await submit(h, path, `/inspector/deliveries/${original.id}/resend`);
    expect(landed.location.startsWith(path)).toBe(true);
    expect(noticeOf(landed.html)?.text).toBe('Resent job.created: succeeded (200).');
    await r.waitFor(2);
    expect(r.received[1]?.headers['x-service-delivery']).toBe(
      r.received[0]?.headers['x-service-delivery'],
    );
    expect(r.received[1]?.body).toBe(r.received[0]?.body);
    const [resent] = await log(h, hook.id);
    expect(resent.kind).toBe('resend');
    expect(resent.resend_of).toBe(original.id);
    expect(landed.html).toContain(resent.id);
    expect(landed.html).toContain(signatureOf(r.received[1]));
  });

  test('a resend without its token, or with another delivery’s, is refused and sends nothing', async () => {
    const { h, r, hook, ws } = await delivered();
    await createJob(ws, 'second');
    await advance(h, 0);
    await r.waitFor(2);
    const [second, first] = await log(h, hook.id);
    const page = await openOk(h, `/inspector/webhooks/${hook.id}`);
    await expectRefused(
      h,
      `/inspector/deliveries/${first.id}/resend`,
      {},
      tokenFor(page.html, `/inspector/deliveries/${second.id}/resend`),
    );
    expect(r.received).toHaveLength(2);
    expect(await log(h, hook.id)).toHaveLength(2);
  });

  test('a test send is signed, marked event_test, and logged as a test', async () => {
    const { h, r, hook } = await jobCreatedHook();
    const path = `/inspector/webhooks/${hook.id}`;
    const landed = await submit(h, path, `${path}/test`);
    expect(noticeOf(landed.html)?.text).toBe('Test job.created sent: succeeded.');
    await r.waitFor(1);
    expect(r.received[0]?.json.event_test).toBe(true);
    expect(verify(hook.secret, signatureOf(r.received[0]), r.received[0]?.body ?? '')).toBe(true);
    expect((await log(h, hook.id))[0].kind).toBe('test');
  });

  test('a test of an event a `*` subscription may pick; one that is no event is said', async () => {
    const c = await setup();
    const hook = await subscribe(c, '*');
    const path = `/inspector/webhooks/${hook.id}`;
    const page = await openOk(c.h, path);
    expect(page.html).toContain('<option value="invoice.paid">');
    const landed = await submit(c.h, path, `${path}/test`, { event: 'contact.created' });
    expect(noticeOf(landed.html)?.text).toBe('Test contact.created sent: succeeded.');
    await c.rx.waitFor(1);
    expect(c.rx.received[0]?.headers['x-service-event']).toBe('contact.created');
    const bad = await submit(c.h, path, `${path}/test`, { event: 'nope.nothing' });
    expect(noticeOf(bad.html)).toEqual({
      kind: 'bad',
      text: '"nope.nothing" is not an event (event)',
    });
  });

  test('rotating shows the new secret once; deliveries are then signed by both', async () => {
    const { h, r, ws, hook } = await jobCreatedHook();
    const path = `/inspector/webhooks/${hook.id}`;
    const landed = await submit(h, path, `${path}/rotate`);
    const fresh = shownOf(landed.html)['New secret'] as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(noticeOf(landed.html)?.text).toContain('the old one keeps signing until');
    await createJob(ws);
    await advance(h, 0);
    const [got] = await r.waitFor(1);
    expect(verify(fresh, signatureOf(got), got?.body ?? '')).toBe(true);
    expect(verify(hook.secret, signatureOf(got), got?.body ?? '')).toBe(true);
    expect((await openOk(h, landed.location)).html).not.toContain(fresh);
  });

  test('re-enabling switches a subscription its revoked key switched off back on', async () => {
    const { h, ws, hook } = await jobCreatedHook();
    await h.admin.delete(`/keys/${ws.keys.write.id}`);
    const path = `/inspector/webhooks/${hook.id}`;
    const page = await openOk(h, path);
    expect(page.html).toContain(`${path}/enable`);
    const wrong = tokenFor(page.html, `${path}/rotate`);
    await expectRefused(h, `${path}/enable`, {}, wrong);
    const before = (await h.admin.get('/webhooks', { query: { workspace_id: ws.id } })).body
      .data[0];
    expect(before.disabled_at).not.toBeNull();
    const landed = await submit(h, path, `${path}/enable`);
    expect(noticeOf(landed.html)?.kind).toBe('ok');
    const after = (await h.admin.get('/webhooks', { query: { workspace_id: ws.id } })).body.data[0];
    expect(after.disabled_at).toBeNull();
    expect(after.consecutive_failures).toBe(0);
  });
});
