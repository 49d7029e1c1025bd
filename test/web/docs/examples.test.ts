import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifySignature } from '../../../src/clients/listen/signature';
import { signature } from '../../../src/deliveries/send';
import {
  CURL_SEND_EXAMPLE,
  OPENSSL_VERIFY_EXAMPLE,
  PYTHON_EXAMPLE,
  TYPESCRIPT_EXAMPLE,
} from '../../../src/web/docs/examples';
import { harness } from '../../support/harness';

// Each example on /docs/signatures is run against signatures made by svc's own signer
// (src/deliveries/send.ts), so the page cannot drift from what svc sends.

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuv';
const OLD_SECRET = 'whsec_oldoldoldoldoldoldoldoldoldold';
const BODY = '{"id":"7b0c","object":"job","name":"Été <roof>","event_type":"job.created"}';

const run = promisify(execFile);
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const now = () => Math.floor(Date.now() / 1000);

/** [what, header, secret the receiver holds, body received, expected verdict] */
function cases(): [string, string, string, string, boolean][] {
  const t = now();
  return [
    ['a delivery as svc signs it verifies', signature([SECRET], BODY, t), SECRET, BODY, true],
    [
      'during a rotation a receiver holding the old secret verifies the second v1',
      signature([SECRET, OLD_SECRET], BODY, t),
      OLD_SECRET,
      BODY,
      true,
    ],
    ['another secret fails', signature([OLD_SECRET], BODY, t), SECRET, BODY, false],
    ['a changed body fails', signature([SECRET], BODY, t), SECRET, `${BODY} `, false],
    // 305, not 301: a verifier started under load reads its clock a second or more after `t`.
    ['a t 305 s old fails', signature([SECRET], BODY, t - 305), SECRET, BODY, false],
    ['a t 305 s ahead fails', signature([SECRET], BODY, t + 305), SECRET, BODY, false],
    ['a missing header fails', '', SECRET, BODY, false],
  ];
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-docs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the examples on /docs/signatures', () => {
  test("the TypeScript example is the webhooks guide's, word for word", async () => {
    const guide = await readFile(
      join(import.meta.dirname, '../../../docs/guides/webhooks.md'),
      'utf8',
    );
    expect(guide).toContain(`\`\`\`ts\n${TYPESCRIPT_EXAMPLE}\`\`\``);
  });

  test('the page shows every example, escaped as text', async () => {
    const h = harness();
    const res = await h.request('/docs/signatures');
    expect(res.status).toBe(200);
    const html = await res.text();
    const text = html
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&');
    for (const example of [
      TYPESCRIPT_EXAMPLE,
      PYTHON_EXAMPLE,
      OPENSSL_VERIFY_EXAMPLE,
      CURL_SEND_EXAMPLE,
    ]) {
      expect(text).toContain(`<pre data-copy=""><code>${example}</code></pre>`);
    }
    expect(html).toContain('string | undefined');
    expect(html).not.toContain('<roof>');
    for (const fact of ['HMAC-SHA256', 'five minutes', '24 hours', 'X-Service-Signature']) {
      expect(html).toContain(fact);
    }
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
  });

  test('the TypeScript example accepts what svc signs and rejects the rest', async () => {
    const file = join(dir, 'verify.ts');
    await writeFile(file, TYPESCRIPT_EXAMPLE);
    const { verifyDelivery } = (await import(/* @vite-ignore */ file)) as {
      verifyDelivery: (body: Buffer, header: string | undefined, secret: string) => boolean;
    };
    for (const [what, header, secret, body, ok] of cases()) {
      expect([what, verifyDelivery(Buffer.from(body), header || undefined, secret)]).toEqual([
        what,
        ok,
      ]);
    }
  });

  test.skipIf(!has('python3'))(
    'the Python example accepts what svc signs and rejects the rest',
    async () => {
      const file = join(dir, 'verify.py');
      const driver = `
import json, sys
for case in json.load(sys.stdin):
    print(json.dumps(verify_delivery(case["body"].encode(), case["header"] or None, case["secret"])))
`;
      await writeFile(file, PYTHON_EXAMPLE + driver);
      const all = cases();
      const input = JSON.stringify(
        all.map(([, header, secret, body]) => ({ header, secret, body })),
      );
      const out = execFileSync('python3', [file], { input, encoding: 'utf8', timeout: 10_000 });
      const verdicts = out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as boolean);
      expect(verdicts).toEqual(all.map(([, , , , ok]) => ok));
    },
  );

  test.skipIf(!has('openssl'))(
    'the openssl example prints the v1 svc signs a saved body with',
    async () => {
      const t = now();
      const header = signature([SECRET], BODY, t);
      await writeFile(join(dir, 'body.json'), BODY);
      const script = OPENSSL_VERIFY_EXAMPLE.replace("'whsec_...'", `'${SECRET}'`).replace(
        "'t=1795435445,v1=5d1c...'",
        `'${header}'`,
      );
      expect(script).not.toBe(OPENSSL_VERIFY_EXAMPLE);
      const out = execFileSync('bash', ['-c', script], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 10_000,
      });
      expect(`t=${t},v1=${out.trim()}`).toBe(header);
    },
  );

  test.skipIf(!has('openssl') || !has('curl'))(
    'the curl example sends a delivery that svc webhook listen verifies',
    async () => {
      const got: { headers: IncomingHttpHeaders; body: Buffer }[] = [];
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          got.push({ headers: req.headers, body: Buffer.concat(chunks) });
          res.end('ok');
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const script = CURL_SEND_EXAMPLE.replace("'whsec_...'", `'${SECRET}'`).replace(
          'http://127.0.0.1:3000/webhooks',
          `http://127.0.0.1:${port}/webhooks`,
        );
        // asynchronously: the receiver answers from this same event loop
        await run('bash', ['-c', script], {
          timeout: 10_000,
          env: { ...process.env, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' },
        });
        expect(got).toHaveLength(1);
        const [delivery] = got;
        const header = delivery?.headers['x-service-signature'];
        const verdict = verifySignature({
          header: typeof header === 'string' ? header : undefined,
          body: delivery?.body ?? Buffer.alloc(0),
          secrets: [SECRET],
          nowSeconds: now(),
          toleranceSeconds: 300,
        });
        expect(verdict).toBe('ok');
        expect(delivery?.headers['content-type']).toBe('application/json');
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});
