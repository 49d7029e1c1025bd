import { type Context, Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../platform/app-env';
import type { Platform } from '../../platform/platform';
import { getEstimate } from '../../resources/estimates/service';
import { getInvoice } from '../../resources/invoices/service';
import { lookup } from '../ui/lookup';
import { notFoundPage } from '../ui/not-found';
import { estimateDoc, invoiceDoc } from './documents';
import { found } from './forms';
import { writePdf } from './pdf';
import { estimateBlocks, invoiceBlocks } from './pdf-documents';

// The documents behind `pdf_url` and `signed_pdf_url`: made from the record each time it is
// asked for, so a PDF always holds the figures GET /v1 shows at that moment.

function sendPdf(c: Context<AppEnv>, name: string, bytes: Uint8Array) {
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': 'application/pdf',
    'Content-Length': String(bytes.byteLength),
    'Content-Disposition': `inline; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
}

export function pdfRoutes(rt: Platform) {
  const estimate = (c: Context<AppEnv>) => {
    const held = lookup(rt, 'estimates', c.req.param('id') ?? '', appUrlFor(rt.config, c.req.url));
    const rec = held && found(() => getEstimate(held.ctx, held.rec.id));
    return held && rec ? { ctx: held.ctx, rec } : undefined;
  };
  return new Hono<AppEnv>()
    .get('/estimates/:id/pdf', (c) => {
      const e = estimate(c);
      if (!e) {
        return notFoundPage(c, 'estimate', 'homeowner');
      }
      const doc = estimateDoc(e.ctx, e.rec);
      return sendPdf(
        c,
        doc.number,
        writePdf(`${doc.documentType} ${doc.number}`, estimateBlocks(doc, false)),
      );
    })
    .get('/estimates/:id/signed.pdf', (c) => {
      const e = estimate(c);
      // spec: signed_pdf_url is null until the estimate is signed; so is the document.
      if (!e || e.rec.signed_at === null) {
        return notFoundPage(c, 'signed estimate', 'homeowner');
      }
      const doc = estimateDoc(e.ctx, e.rec);
      return sendPdf(
        c,
        `${doc.number}-signed`,
        writePdf(`${doc.documentType} ${doc.number} (signed)`, estimateBlocks(doc, true)),
      );
    })
    .get('/invoices/:id/pdf', (c) => {
      const held = lookup(rt, 'invoices', c.req.param('id'), appUrlFor(rt.config, c.req.url));
      const rec = held && found(() => getInvoice(held.ctx, held.rec.id));
      if (!held || !rec) {
        return notFoundPage(c, 'invoice', 'homeowner');
      }
      const doc = invoiceDoc(held.ctx, rec);
      return sendPdf(c, doc.number, writePdf(`Invoice ${doc.number}`, invoiceBlocks(doc)));
    });
}
