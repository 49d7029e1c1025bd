import { type Context, Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../../platform/app-env';
import type { PageDeps } from '../../../platform/family';
import { found } from '../../../web/homeowner/forms';
import { writePdf } from '../../../web/homeowner/pdf';
import { sendPdf } from '../../../web/homeowner/pdf-answer';
import { estimateBlocks } from '../../../web/homeowner/pdf-documents';
import { lookup } from '../../../web/ui/lookup';
import { notFoundPage } from '../../../web/ui/not-found';
import { getEstimate } from '../service';
import { estimateDoc } from './document';

// An estimate's `pdf_url` and, once signed, its `signed_pdf_url`.

export function estimatePdfs({ rt }: PageDeps) {
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
    });
}
