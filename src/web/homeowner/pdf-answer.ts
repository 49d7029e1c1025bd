import type { Context } from 'hono';
import type { AppEnv } from '../../platform/app-env';

// The documents behind `pdf_url` and `signed_pdf_url` (each family's pages/pdf.ts): made from the
// record each time one is asked for, so a PDF always holds the figures GET /v1 shows then.

/** A PDF as the browser opens it in place, named for the document, never cached. */
export function sendPdf(c: Context<AppEnv>, name: string, bytes: Uint8Array) {
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': 'application/pdf',
    'Content-Length': String(bytes.byteLength),
    'Content-Disposition': `inline; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
}
