import type { EstimateDoc, InvoiceDoc, LineView, Party } from './documents';
import { day, money, quantity, tierName } from './format';
import type { Block } from './pdf';

// The estimate and invoice as PDF blocks: the same figures the pages and GET /v1 show.

function header(p: Party, kind: string, number: string): Block[] {
  const out: Block[] = [
    { kind: 'title', text: p.company },
    { kind: 'text', text: `${kind} ${number}`, muted: true },
    { kind: 'space' },
  ];
  if (p.customer) {
    out.push({ kind: 'row', left: `Prepared for: ${p.customer}`, right: '' });
  }
  if (p.address) {
    out.push({ kind: 'row', left: `Property: ${p.address}`, right: '' });
  }
  return out;
}

function lineRows(lines: readonly LineView[], indent = 0): Block[] {
  return lines.map((l) => ({
    kind: 'row',
    indent,
    left:
      l.unitPrice === null
        ? `• ${l.name}`
        : l.quantity === 1
          ? l.name
          : `${l.name} (${quantity(l.quantity)} × ${money(l.unitPrice)})`,
    right: l.amount === null ? '' : money(l.amount),
  }));
}

export function estimateBlocks(d: EstimateDoc, signed: boolean): Block[] {
  const out: Block[] = [...header(d, d.documentType, d.number)];
  out.push({ kind: 'heading', text: d.title });
  if (d.validUntil) {
    out.push({ kind: 'text', text: `Valid until ${day(d.validUntil)}` });
  }
  out.push({ kind: 'heading', text: 'Scope of work' }, ...lineRows(d.scope));
  for (const p of d.packages) {
    const chosen = d.selectedTier === p.name ? ' (chosen)' : '';
    out.push(
      { kind: 'heading', text: `${tierName(p.name)} package${chosen}` },
      ...lineRows(p.lines, 12),
      { kind: 'row', left: 'Package total', right: money(p.total), bold: true, indent: 12 },
    );
  }
  if (d.upgrades.length > 0) {
    out.push(
      { kind: 'heading', text: 'Optional upgrades' },
      ...d.upgrades.map((u): Block => ({ kind: 'row', left: u.name, right: money(u.price) })),
      { kind: 'text', text: 'Upgrades are quoted outside the price above.', muted: true },
    );
  }
  out.push({ kind: 'rule' });
  out.push({ kind: 'row', left: d.totalLabel, right: money(d.total), bold: true });
  out.push({ kind: 'space' }, { kind: 'heading', text: 'Signature' });
  if (signed && d.signedAt) {
    out.push(
      { kind: 'text', text: `Signed by ${d.signerName ?? ''} on ${day(d.signedAt)}.` },
      ...(d.selectedTier
        ? [{ kind: 'text', text: `Package chosen: ${tierName(d.selectedTier)}.` } as Block]
        : []),
      { kind: 'text', text: `Signature: /${d.signerName ?? ''}/ (typed)` },
    );
  } else {
    out.push(
      { kind: 'space' },
      { kind: 'text', text: 'Signature: ________________________________   Date: ______________' },
    );
  }
  return out;
}

export function invoiceBlocks(d: InvoiceDoc): Block[] {
  const out: Block[] = [...header(d, 'Invoice', d.number)];
  if (d.title) {
    out.push({ kind: 'heading', text: d.title });
  }
  out.push(
    {
      kind: 'text',
      text: `Issued ${day(d.issueDate)}${d.dueDate ? `, due ${day(d.dueDate)}` : ''}`,
    },
    { kind: 'heading', text: 'Items' },
    ...lineRows(d.lines),
    { kind: 'rule' },
    { kind: 'row', left: 'Subtotal', right: money(d.subtotal) },
  );
  if (d.discount !== null) {
    out.push({ kind: 'row', left: 'Discount', right: money(-d.discount) });
  }
  if (d.tax !== null) {
    out.push({ kind: 'row', left: `Tax (${d.taxRate ?? 0}%)`, right: money(d.tax) });
  }
  out.push(
    { kind: 'row', left: 'Total', right: money(d.total), bold: true },
    { kind: 'row', left: 'Paid', right: money(d.paid) },
    { kind: 'row', left: 'Balance due', right: money(d.balance), bold: true },
  );
  if (d.notes) {
    out.push({ kind: 'heading', text: 'Notes' }, { kind: 'text', text: d.notes });
  }
  if (d.terms) {
    out.push({ kind: 'heading', text: 'Terms' }, { kind: 'text', text: d.terms });
  }
  return out;
}
