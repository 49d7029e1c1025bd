import { expect, inject, test } from 'vitest';

// Your integration's code would make these calls; the test drives svc's clock to see what it does
// when an invoice goes overdue.
const { baseUrl, appUrl, workspaceId, writeKey } = inject('svc');

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${writeKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

test('a sent invoice due today is overdue two days later', async () => {
  const job = await call('POST', '/jobs', {
    name: 'Hail claim',
    address: '1420 Elm Street',
    city: 'Dallas',
    state: 'TX',
    postal_code: '75201',
  });
  expect(job.status).toBe(201);
  const invoice = await call('POST', '/invoices', {
    job_id: job.body.id,
    line_items: [{ name: 'Gutters', quantity: 2, unit_price: 450 }],
  });
  await call('PATCH', `/invoices/${invoice.body.id}`, { due_date: invoice.body.issue_date });
  await call('POST', `/invoices/${invoice.body.id}/mark_sent`);

  // This workspace's clock alone: two days on.
  await fetch(`${appUrl}/__admin/workspaces/${workspaceId}/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advance_seconds: 2 * 86_400 }),
  });

  const later = await call('GET', `/invoices/${invoice.body.id}`);
  expect(later.body.status).toBe('overdue');
});
