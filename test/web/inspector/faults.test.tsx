import { describe, expect, test } from 'vitest';
import { harness } from '../../support/harness';
import {
  ESCAPED,
  expectRefused,
  linksResolve,
  noticeOf,
  openOk,
  submit,
  tokenFor,
} from './support';

// decisions.md, Faults: listed with how often each fired, added through POST /__admin/faults's
// own rules, deleted one by one or all at once.

const h = harness({ rateLimit: null });
const faults = async () => (await h.admin.get('/faults')).body.data as { id: string }[];

describe('/inspector/faults', () => {
  test('a fault added from the form answers matching calls, and the page counts its firing', async () => {
    const ws = await h.workspace();
    const landed = await submit(h, '/inspector/faults', '/inspector/faults', {
      method: 'GET',
      path: '/jobs',
      workspace_id: ws.id,
      status: '500',
      times: '1',
    });
    expect(noticeOf(landed.html)?.text).toMatch(
      /^Fault flt_[0-9a-f]{16} added: GET \/jobs: answer 500\.$/,
    );
    const res = await ws.api.get('/jobs');
    expect(res.status).toBe(500);
    expect((await ws.api.get('/jobs')).status).toBe(200);
    const page = await openOk(h, '/inspector/faults');
    const [fault] = (await h.admin.get('/faults')).body.data;
    expect(fault).toMatchObject({ fired: 1, remaining: 0, state: 'spent' });
    expect(page.html).toContain(`/inspector/requests?fault=${fault.id}`);
    await linksResolve(h, page);
    const hit = await openOk(h, `/inspector/requests?fault=${fault.id}`);
    expect(hit.html).toContain('<span class="badge bad">500</span>');
    await submit(h, '/inspector/faults', '/inspector/faults/clear');
  });

  test('what POST /__admin/faults refuses is said on the page, naming the field; nothing is added', async () => {
    const before = (await faults()).length;
    for (const [fields, field] of [
      [{ path: '/jobs', status: '200' }, 'action.status'],
      [{ path: 'jobs', status: '503' }, 'match.path'],
      [{ path: '/jobs', status: 'many' }, 'action.status'],
      [{ path: '/jobs' }, 'action'],
      [{ path: '/jobs', drop: 'on', status: '503' }, 'action.drop'],
    ] as const) {
      const landed = await submit(h, '/inspector/faults', '/inspector/faults', fields);
      expect(noticeOf(landed.html)?.kind, JSON.stringify(fields)).toBe('bad');
      expect(noticeOf(landed.html)?.text).toContain(`(${field})`);
    }
    expect(await faults()).toHaveLength(before);
  });

  test('deleting one removes only it; clear all removes the rest', async () => {
    for (const path of ['/a', '/b', '/c']) {
      await h.admin.post('/faults', { match: { path }, action: { status: 500 } });
    }
    const [first, ...rest] = await faults();
    const landed = await submit(h, '/inspector/faults', `/inspector/faults/${first?.id}/delete`);
    expect(noticeOf(landed.html)?.text).toBe(`Fault ${first?.id} deleted.`);
    expect((await faults()).map((f) => f.id)).toEqual(rest.map((f) => f.id));
    const cleared = await submit(h, '/inspector/faults', '/inspector/faults/clear');
    expect(noticeOf(cleared.html)?.text).toBe('2 faults cleared.');
    expect(await faults()).toEqual([]);
  });

  test('adding, deleting and clearing each need their own token', async () => {
    const made = (await h.admin.post('/faults', { match: { path: '/x' }, action: { status: 500 } }))
      .body;
    const page = await openOk(h, '/inspector/faults');
    const other = tokenFor(page.html, '/inspector/faults/clear');
    await expectRefused(h, '/inspector/faults', { path: '/y', status: '500' }, other);
    await expectRefused(h, `/inspector/faults/${made.id}/delete`, {}, other);
    await expectRefused(h, '/inspector/faults/clear', {}, tokenFor(page.html, '/inspector/faults'));
    expect((await faults()).map((f) => f.id)).toEqual([made.id]);
    await h.admin.delete('/faults');
  });

  test('a workspace named with a script tag is text in the form', async () => {
    await h.workspace({ name: '<script>alert(1)</script>' });
    const page = await openOk(h, '/inspector/faults');
    expect(page.html).toContain(ESCAPED);
    expect(page.html).not.toContain('<script>alert(1)</script>');
  });
});
