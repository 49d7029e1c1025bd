import { Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../../platform/app-env';
import type { PageDeps } from '../../../platform/family';
import { found } from '../../../web/homeowner/forms';
import { writePdf } from '../../../web/homeowner/pdf';
import { sendPdf } from '../../../web/homeowner/pdf-answer';
import { invoiceBlocks } from '../../../web/homeowner/pdf-documents';
import { lookup } from '../../../web/ui/lookup';
import { notFoundPage } from '../../../web/ui/not-found';
import { getInvoice } from '../service';
import { invoiceDoc } from './document';

// An invoice's `pdf_url`.

export function invoicePdf({ rt }: PageDeps) {
  return new Hono<AppEnv>().get('/invoices/:id/pdf', (c) => {
    const held = lookup(rt, 'invoices', c.req.param('id'), appUrlFor(rt.config, c.req.url));
    const rec = held && found(() => getInvoice(held.ctx, held.rec.id));
    if (!held || !rec) {
      return notFoundPage(c, 'invoice', 'homeowner');
    }
    const doc = invoiceDoc(held.ctx, rec);
    return sendPdf(c, doc.number, writePdf(`Invoice ${doc.number}`, invoiceBlocks(doc)));
  });
}
