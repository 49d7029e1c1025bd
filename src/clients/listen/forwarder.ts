import { type Delivery, deliveryHeaders } from './receiver';

// --forward-to URL: each accepted, non-duplicate delivery goes on to the integrator's app with
// the same body bytes and the same X-Service-*, Content-Type and User-Agent headers, so the app
// can verify the signature itself. The listener's own answer never waits for, nor depends on,
// the app's.

export type Forward = (delivery: Delivery, label: string) => Promise<void>;

const FORWARD_TIMEOUT_MS = 10_000; // spec, Receiver responses: svc waits 10 seconds

export function createForwarder(url: string, warn: (line: string) => void): Forward {
  return async (delivery, label) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...deliveryHeaders(delivery.headers),
    };
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers,
        body: delivery.raw,
        redirect: 'manual',
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      await res.arrayBuffer();
      if (res.status < 200 || res.status > 299) {
        warn(`warning: forwarding ${label} to ${url} was answered ${res.status}`);
      }
    } catch (err) {
      warn(`warning: forwarding ${label} to ${url} failed: ${reason(err)}`);
    }
  };
}

function reason(err: unknown): string {
  if (!(err instanceof Error)) {
    return String(err);
  }
  // fetch wraps the socket error: "fetch failed" says nothing, its cause does
  const cause = (err as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : err.message;
}
