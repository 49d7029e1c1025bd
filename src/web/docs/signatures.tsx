import type { Context } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { Page } from '../ui/layout';
import {
  CURL_SEND_EXAMPLE,
  OPENSSL_VERIFY_EXAMPLE,
  PYTHON_EXAMPLE,
  TYPESCRIPT_EXAMPLE,
} from './examples';
import { DocsNav } from './nav';

function Example({ id, title, code }: { id: string; title: string; code: string }) {
  return (
    <section id={id}>
      <h2>{title}</h2>
      <div class="example">
        <pre data-copy="">
          <code>{code}</code>
        </pre>
      </div>
    </section>
  );
}

/** The header a delivery carries, and its two parts. */
function TheHeader() {
  return (
    <>
      <p>
        Every delivery carries <code>X-Service-Signature</code>, so a receiver can tell it came from
        the service and was not changed or replayed on the way:
      </p>
      <pre>
        <code>X-Service-Signature: t=1795435445,v1=5d1c…e9a0</code>
      </pre>
      <dl class="facts">
        <dt>
          <code>t</code>
        </dt>
        <dd>when the delivery was signed, in Unix seconds</dd>
        <dt>
          <code>v1</code>
        </dt>
        <dd>
          the signature, in hex: one per active secret of the subscription (two while a secret is
          being rotated)
        </dd>
      </dl>
    </>
  );
}

/** What a receiver does with each delivery. */
function TheRule() {
  return (
    <>
      <h2>The rule</h2>
      <ol>
        <li>
          Take the body <strong>as the raw bytes received</strong>, before any JSON parser touches
          it (with Express, <code>{"express.raw({ type: 'application/json' })"}</code>; with Hono,{' '}
          <code>await c.req.arrayBuffer()</code>; with Flask, <code>request.get_data()</code>). A
          body parsed and serialised again rarely gives the same bytes.
        </li>
        <li>
          Compute HMAC-SHA256 of <code>{'<t>.<raw body>'}</code> (the value of <code>t</code>, a
          full stop, then the body) keyed with the subscription's secret (<code>whsec_…</code>,
          shown once, when the subscription is created or its secret rotated), as hex.
        </li>
        <li>
          Accept the delivery if <strong>any</strong> <code>v1</code> equals it, comparing in
          constant time.
        </li>
        <li>
          Reject it if <code>t</code> is more than <strong>five minutes</strong> (300 s) from your
          clock, either way: a replay of an old delivery fails even with a valid signature.
        </li>
      </ol>
    </>
  );
}

/** Rotation, and what to do once a delivery is verified. */
function AfterVerifying() {
  return (
    <>
      <p>
        <strong>Rotating a secret:</strong> for 24 hours the new and the old secret both sign each
        delivery, so it carries two <code>v1</code> values. A receiver that still holds the old
        secret keeps verifying; switch it to the new one within the 24 hours. Several events on one
        URL share one secret; separate subscriptions have separate secrets.
      </p>
      <p>
        Then answer 2xx within ten seconds and do the work after (or queue it). Skip an{' '}
        <code>event_id</code> (also the <code>X-Service-Delivery</code> header) you have already
        processed: retries and resends repeat it. A retry can arrive after a newer event, so compare{' '}
        <code>event_at</code> or <code>updated_at</code> before overwriting.
      </p>
    </>
  );
}

function Examples() {
  return (
    <>
      <Example id="typescript" title="TypeScript (Node)" code={TYPESCRIPT_EXAMPLE} />
      <Example id="python" title="Python" code={PYTHON_EXAMPLE} />
      <Example
        id="openssl"
        title="openssl: check a delivery saved to a file"
        code={OPENSSL_VERIFY_EXAMPLE}
      />
      <Example
        id="curl"
        title="curl and openssl: send a signed delivery to your receiver"
        code={CURL_SEND_EXAMPLE}
      />
    </>
  );
}

function TryingItOut() {
  return (
    <>
      <h2>Trying it out</h2>
      <p>
        <code>svc webhook listen --server</code> subscribes a receiver that verifies every delivery
        this way and prints, when a signature fails, why (a re-encoded body, clock skew, another
        secret). A test send from the inspector is signed like any delivery and carries{' '}
        <code>event_test: true</code>. See also the <a href="/docs/errors">error codes</a> and the{' '}
        <a href="/docs#/Webhooks">webhook operations</a>.
      </p>
    </>
  );
}

// spec, Signature verification and Delivery headers, told as a receiver needs it.
/** GET /docs/signatures */
export function signaturesPage(c: Context<AppEnv>) {
  return c.html(
    <Page
      title="Verifying webhook signatures"
      area="docs"
      styles={['/_app/docs.css']}
      scripts={['/_app/docs-copy.js']}
    >
      <h1>Verifying webhook signatures</h1>
      <DocsNav current="/docs/signatures" />
      <TheHeader />
      <TheRule />
      <AfterVerifying />
      <Examples />
      <TryingItOut />
    </Page>,
  );
}
