// The examples on /docs/signatures. The TypeScript one is the webhooks guide's
// (docs/guides/webhooks.md, "Verifying a signature in a few lines of TypeScript"), word for word;
// test/web/docs runs each against signatures svc makes.

export const TYPESCRIPT_EXAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = 5 * 60;

/** True when \`header\` (X-Service-Signature) signs \`rawBody\` with \`secret\`, recently enough. */
export function verifyDelivery(rawBody: Buffer, header: string | undefined, secret: string) {
  let t = Number.NaN;
  const candidates: string[] = [];
  for (const part of (header ?? '').split(',')) {
    const [name, value = ''] = part.trim().split('=', 2);
    if (name === 't') {
      t = Number(value);
    } else if (name === 'v1') {
      candidates.push(value); // one per active secret: two during a rotation
    }
  }
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > TOLERANCE_SECONDS) {
    return false;
  }
  const expected = createHmac('sha256', secret).update(\`\${t}.\`).update(rawBody).digest();
  let ok = false;
  for (const v1 of candidates) {
    const given = Buffer.from(v1, 'hex');
    // timingSafeEqual throws on different lengths; a digest's length is no secret
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      ok = true;
    }
  }
  return ok;
}
`;

export const PYTHON_EXAMPLE = `import hashlib
import hmac
import time

TOLERANCE_SECONDS = 5 * 60


def verify_delivery(raw_body: bytes, header, secret: str) -> bool:
    """True when header (X-Service-Signature) signs raw_body with secret, recently enough."""
    t = None
    candidates = []
    for part in (header or "").split(","):
        name, _, value = part.strip().partition("=")
        if name == "t":
            t = value
        elif name == "v1":
            candidates.append(value)  # one per active secret: two during a rotation
    if t is None or not t.isdigit() or abs(time.time() - int(t)) > TOLERANCE_SECONDS:
        return False
    signed = t.encode() + b"." + raw_body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    ok = False
    for v1 in candidates:
        # compare_digest takes the same time wherever the two differ
        if hmac.compare_digest(v1.lower().encode(), expected.encode()):
            ok = True
    return ok
`;

/** Checks a delivery saved to body.json: prints the v1 its bytes should carry. */
export const OPENSSL_VERIFY_EXAMPLE = `SECRET='whsec_...'                       # the subscription's secret
header='t=1795435445,v1=5d1c...'           # X-Service-Signature, as received
t=\${header#t=}; t=\${t%%,*}
# body.json: the body exactly as received (not re-serialised)
{ printf '%s.' "$t"; cat body.json; } | openssl dgst -sha256 -hmac "$SECRET" -r | cut -d' ' -f1
# genuine when this equals one of the header's v1 values and t is within 300 s of $(date +%s)
`;

/** Sends a delivery signed as svc signs one, to try a receiver out. */
export const CURL_SEND_EXAMPLE = `# A signed delivery of your own, sent to your receiver (as svc would sign it)
SECRET='whsec_...'   # the subscription's secret
body='{"id":"7b0c","object":"job","event_type":"job.created"}'
t=$(date +%s)
v1=$(printf '%s.%s' "$t" "$body" | openssl dgst -sha256 -hmac "$SECRET" -r | cut -d' ' -f1)
curl -s -X POST http://127.0.0.1:3000/webhooks \\
  -H 'Content-Type: application/json' \\
  -H "X-Service-Signature: t=$t,v1=$v1" \\
  --data-binary "$body"
`;
