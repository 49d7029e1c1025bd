// Screenshots of the web app's main pages for the README (issue 20), as PNGs in docs/screenshots/.
// It starts its own `svc serve` on a temp data file seeded with the demo workspace (`svc seed
// --seed 1`: the same records every run), makes the few things the pages show (API calls in the
// request log, a webhook's deliveries to a receiver of its own on 127.0.0.1, an estimate sent for
// signature), then opens each page in Debian's Chromium at 1280x800 and saves what fits the
// window. Times on the pages are the real clock's, so two runs differ only there.
// Run: npm run build && npx tsx scripts/screenshots.ts
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/support/browser';
import { cleanup, http, runSvc, startServe, tempDir } from '../test/support/spawn';

const OUT = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const VIEWPORT = { width: 1280, height: 800 };

interface Seeded {
  workspaces: { id: string; keys: { write: { key: string } } }[];
}

/** A webhook receiver that refuses its first delivery, so the page shows a failed attempt too. */
async function receiver(): Promise<{ url: string; close: () => Promise<void> }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n += 1;
      res.writeHead(n === 1 ? 500 : 200, { 'Content-Type': 'text/plain' });
      res.end(n === 1 ? 'busy, try again' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/svc`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function main() {
  const data = join(await tempDir(), 'data.json');
  const seeded = await runSvc([
    'seed',
    '--data',
    data,
    '--seed',
    '1',
    '--profile',
    'demo',
    '--json',
  ]);
  if (seeded.code !== 0) {
    throw new Error(`svc seed failed: ${seeded.stderr}`);
  }
  const ws = (JSON.parse(seeded.stdout) as Seeded).workspaces[0];
  if (!ws) {
    throw new Error('svc seed made no workspace');
  }
  const key = ws.keys.write.key;
  const svc = await startServe(data, ['--allow-local-targets']);
  const hooks = await receiver();
  const chrome = await launchChromium();
  try {
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await http(`${svc.url}${path}`, { method, key, body });
      if (res.status >= 300) {
        throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
      return res.body;
    };
    const jobs = (await api('GET', '/v1/jobs?limit=50')).data;
    const invoices = (await api('GET', '/v1/invoices?limit=100')).data;
    const payable = invoices.find((i: { status: string }) => i.status === 'sent');
    // the job the payable invoice is on: it has money to show
    const job = jobs.find((j: { id: string }) => j.id === payable?.job_id) ?? jobs[0];

    const hook = await api('POST', '/v1/webhooks', {
      target_url: hooks.url,
      event: 'contact.created',
      description: 'CRM sync',
    });
    await api('POST', '/v1/contacts', { first_name: 'Grace', last_name: 'Hopper' });
    await api('POST', '/v1/contacts', { first_name: 'Katherine', last_name: 'Johnson' });
    await api('GET', '/v1/contacts?limit=5');
    await http(`${svc.url}/v1/jobs/00000000-0000-4000-8000-000000000000`, { key });
    // the deliveries are sent as the records commit; give them a moment to be logged
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    let estimate: { id: string; package_totals: unknown } | undefined;
    for (const t of (await api('GET', '/v1/estimate_templates')).data) {
      estimate = await api('POST', '/v1/estimates', { job_id: job.id, template_id: t.id });
      if (estimate?.package_totals !== null) {
        break;
      }
    }
    const sent = await http(`${svc.url}/__admin/estimates/${estimate?.id}/send`, {
      method: 'POST',
    });

    const pages: [string, string, string?][] = [
      ['dashboard', '/'],
      ['workspace', `/workspaces/${ws.id}`],
      ['job', new URL(job.url).pathname],
      ['inspector-requests', '/inspector/requests'],
      ['webhook-deliveries', `/inspector/webhooks/${hook.id}`],
      ['estimate-view', new URL(sent.body.view_url).pathname],
      ['pay', new URL(payable.payment_url).pathname],
      ['docs', '/docs', '.opblock'],
    ];
    await mkdir(OUT, { recursive: true });
    const page = await chrome.newPage({ viewport: VIEWPORT });
    for (const [name, path, ready] of pages) {
      const res = await page.goto(`${svc.url}${path}`, { waitUntil: 'load' });
      if (res?.status() !== 200) {
        throw new Error(`${path} answered ${res?.status()}`);
      }
      if (ready) {
        await page.waitForSelector(ready, { timeout: 10_000 });
      }
      const file = join(OUT, `${name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      console.log(`${file}  (${path})`);
    }
  } finally {
    await chrome.close();
    await hooks.close();
    await svc.stop();
    await cleanup();
  }
}

await main();
