import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../platform/app-env';

// What every page of the web app is sent with: scripts, styles and requests from svc itself only
// (no CDN: svc runs offline), images from svc or inline (thumbnails, the pin map), forms posting
// only back to svc, never framed, and no Referer carrying a record's address elsewhere.
const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const pageHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  // A page with a policy of its own (the consent page's is stricter) keeps it.
  if (
    c.res.headers.get('content-type')?.startsWith('text/html') &&
    !c.res.headers.has('Content-Security-Policy')
  ) {
    c.res.headers.set('Content-Security-Policy', POLICY);
    c.res.headers.set('X-Frame-Options', 'DENY');
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Referrer-Policy', 'same-origin');
    c.res.headers.set('Cache-Control', 'no-store');
  }
};
