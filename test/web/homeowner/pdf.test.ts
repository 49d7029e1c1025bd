// The documents behind pdf_url and signed_pdf_url (spec, Estimate and Invoice): real PDF files
// whose cross-reference table points at every object, holding the document's text and figures.
import { describe, expect, test } from 'vitest';
import { writePdf } from '../../../src/web/homeowner/pdf';
import type { Harness } from '../../support/harness';
import {
  estimate,
  hiddenFields,
  money,
  ok,
  packagedTemplate,
  path,
  sentEstimate,
  sentInvoice,
  submit,
  UNKNOWN,
} from './setup';

// WinAnsiEncoding's bytes above Latin-1 that the writer uses, read back.
const WIN_ANSI: Record<number, string> = {
  133: '…',
  145: '‘',
  146: '’',
  147: '“',
  148: '”',
  149: '•',
  150: '–',
  151: '—',
};

/** Checks a PDF's structure and answers the text its pages show, in order, a line each. */
function readPdf(bytes: Uint8Array): { text: string; pages: number } {
  const file = Buffer.from(bytes).toString('latin1');
  expect(file.startsWith('%PDF-1.4\n')).toBe(true);
  expect(file.endsWith('%%EOF\n')).toBe(true);
  const start = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(file)?.[1]);
  expect(file.slice(start, start + 5)).toBe('xref\n');
  const head = /^xref\n0 (\d+)\n/.exec(file.slice(start));
  const count = Number(head?.[1]);
  const table = file.slice(start + (head?.[0].length ?? 0));
  expect(table.slice(0, 20)).toBe('0000000000 65535 f \n');
  for (let id = 1; id < count; id++) {
    const entry = table.slice(id * 20, id * 20 + 20);
    expect(entry).toMatch(/^\d{10} 00000 n \n$/);
    const at = Number(entry.slice(0, 10));
    expect(file.slice(at, at + `${id} 0 obj\n`.length), `object ${id}`).toBe(`${id} 0 obj\n`);
  }
  expect(file).toContain(`/Size ${count} /Root 1 0 R`);
  for (const m of file.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const from = (m.index ?? 0) + m[0].length;
    expect(file.slice(from + Number(m[1]), from + Number(m[1]) + 10)).toBe('\nendstream');
  }
  const lines = [...file.matchAll(/\((?:[^()\\]|\\.|\\[0-7]{3})*\) Tj/g)].map((m) =>
    m[0]
      .slice(1, -4)
      .replace(/\\([0-7]{3})|\\(.)/g, (_, oct: string, ch: string) =>
        oct ? String.fromCharCode(Number.parseInt(oct, 8)) : ch,
      )
      .replace(/[\x80-\x9f]/g, (c) => WIN_ANSI[c.charCodeAt(0)] ?? '?'),
  );
  return {
    text: lines.join('\n'),
    pages: Number(/\/Type \/Pages .*\/Count (\d+)/.exec(file)?.[1]),
  };
}

async function fetchPdf(
  h: Harness,
  url: string,
): Promise<{ status: number; type: string | null; text: string; pages: number }> {
  const res = await h.request(path(url));
  if (res.status !== 200) {
    return { status: res.status, type: res.headers.get('content-type'), text: '', pages: 0 };
  }
  const pdf = readPdf(new Uint8Array(await res.arrayBuffer()));
  return { status: res.status, type: res.headers.get('content-type'), ...pdf };
}

describe('the PDF writer', () => {
  test('text a PDF string cannot hold as is comes back as written', () => {
    const name = 'Zoë’s roof (east) \\ “best” — 10×12 屋根';
    const { text } = readPdf(writePdf('t', [{ kind: 'text', text: name }]));
    expect(text).toContain('Zoë’s roof (east) \\ “best” — 10×12 ??');
  });

  test('a long document runs onto more pages, each numbered', () => {
    const blocks = Array.from({ length: 150 }, (_, i) => ({
      kind: 'row' as const,
      left: `Line ${i}`,
      right: '$1.00',
    }));
    const { text, pages } = readPdf(writePdf('long', blocks));
    expect(pages).toBeGreaterThan(2);
    expect(text).toContain(`Page 1 of ${pages}`);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain('Line 149');
  });

  test('a word wider than the page is cut, never lost', () => {
    const word = 'x'.repeat(400);
    const { text } = readPdf(writePdf('wide', [{ kind: 'text', text: word }]));
    expect(text.replace(/\n/g, '')).toContain(word);
  });
});

describe('the estimate PDF', () => {
  test('holds the company, the customer, the lines, every package total and the signature line', async () => {
    const m = await money();
    const e = await estimate(m, { template_id: await packagedTemplate(m) });
    const pdf = await fetchPdf(m.h, e.pdf_url);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.text).toContain('Summit Roofing');
    expect(pdf.text).toContain('Prepared for: Ada Lovelace');
    expect(pdf.text).toContain('Property: 12 Elm St, Tulsa, OK 74103');
    expect(pdf.text).toContain(e.estimate_number);
    for (const total of Object.values(e.package_totals) as number[]) {
      expect(pdf.text).toContain(`$${total.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    }
    expect(pdf.text).toContain('Signature: ____');
  });

  test('a priced estimate’s total is the one GET shows', async () => {
    const m = await money();
    const e = await estimate(m, {
      line_items: [{ name: 'Tear-off', quantity: 2, unit_price: 612.5 }],
    });
    const pdf = await fetchPdf(m.h, e.pdf_url);
    expect(pdf.text).toContain('Tear-off (2 × $612.50)');
    expect(pdf.text).toContain('Total\n$1,225.00');
  });

  test('the signed copy exists only once signed, and names the signer, the date and the package', async () => {
    const m = await money();
    const e = await sentEstimate(m, { template_id: await packagedTemplate(m) });
    const early = await m.h.request(`/estimates/${e.id}/signed.pdf`);
    expect(early.status).toBe(404);
    const view = path(e.view_url);
    const fields = hiddenFields(await (await m.h.request(view)).text(), `${view}/sign`);
    await submit(m.h, `${view}/sign`, {
      ...fields,
      signer_name: 'Ada Lovelace',
      selected_tier: 'better',
    });
    const signed = await ok(m.ws.api.get(`/estimates/${e.id}`));
    const pdf = await fetchPdf(m.h, signed.signed_pdf_url);
    expect(pdf.status).toBe(200);
    const day = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'long',
      timeZone: 'America/Chicago',
    }).format(Date.parse(signed.signed_at));
    expect(pdf.text).toContain(`Signed by Ada Lovelace on ${day}.`);
    expect(pdf.text).toContain('Package chosen: Better.');
    expect(pdf.text).toContain('Better package (chosen)');
    expect(pdf.text).toContain(
      `Total\n$${signed.total.toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );
  });

  // spec, Estimate: total is "the package the homeowner chose, else the base package, computed
  // as the PDF computes it": one price for the whole job stands only until a package is chosen.
  test('one price stands until a package is chosen; signed, the PDF totals the package chosen', async () => {
    const m = await money();
    const e = await sentEstimate(m, { template_id: await packagedTemplate(m), price: 9_999.99 });
    expect((await fetchPdf(m.h, e.pdf_url)).text).toContain('Price for the whole job\n$9,999.99');
    const view = path(e.view_url);
    const fields = hiddenFields(await (await m.h.request(view)).text(), `${view}/sign`);
    await submit(m.h, `${view}/sign`, { ...fields, signer_name: 'Ada', selected_tier: 'best' });
    const signed = await ok(m.ws.api.get(`/estimates/${e.id}`));
    expect(signed.total).toBe(signed.package_totals.best);
    const pdf = await fetchPdf(m.h, signed.signed_pdf_url);
    expect(pdf.text).toContain(
      `Total\n$${signed.total.toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    );
    expect(pdf.text).not.toContain('Price for the whole job');
  });

  test('an unknown estimate, and one on a deleted job, have no PDF', async () => {
    const m = await money();
    expect((await m.h.request(`/estimates/${UNKNOWN}/pdf`)).status).toBe(404);
    const e = await estimate(m, { line_items: [{ name: 'Roof', unit_price: 1 }] });
    await ok(m.ws.api.delete(`/jobs/${m.job.id}`));
    const gone = await m.h.request(path(e.pdf_url));
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('the invoice PDF', () => {
  test('holds the lines and the figures GET shows, and follows payments', async () => {
    const m = await money();
    const inv = await sentInvoice(m, {
      tax_rate: 8.25,
      discount_type: 'amount',
      discount_value: 100,
      terms: 'Net 30',
    });
    const before = await fetchPdf(m.h, inv.pdf_url);
    expect(before.type).toBe('application/pdf');
    expect(before.text).toContain(inv.invoice_number);
    expect(before.text).toContain('Roof replacement\n$1,000.00');
    expect(before.text).toContain('Discount\n-$100.00');
    expect(before.text).toContain(`Tax (8.25%)\n$${inv.tax_amount.toFixed(2)}`);
    expect(before.text).toContain(`Total\n$${inv.total_amount.toFixed(2)}`);
    expect(before.text).toContain('Net 30');
    await ok(
      m.ws.api.post('/payments', { job_id: m.job.id, invoice_id: inv.id, amount: 200 }),
      201,
    );
    const after = await fetchPdf(m.h, inv.pdf_url);
    expect(after.text).toContain('Paid\n$200.00');
    expect(after.text).toContain(`Balance due\n$${(inv.total_amount - 200).toFixed(2)}`);
  });

  test('an unknown invoice has no PDF', async () => {
    const m = await money();
    expect((await m.h.request(`/invoices/${UNKNOWN}/pdf`)).status).toBe(404);
  });
});
