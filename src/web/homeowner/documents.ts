import { dollars, lineCents } from '../../resources/common/cents';
import type { Line } from '../../resources/common/line-items';
import type { WorkspaceCollections } from '../../store';

// What the homeowner's pages and PDFs show of an estimate or an invoice (each family works its own
// out: estimates/pages/document.ts, invoices/pages/document.ts), so the page, the PDF and GET /v1
// never disagree on a figure.

export interface LineView {
  name: string;
  quantity: number;
  unitPrice: number | null;
  amount: number | null;
  taxable?: boolean;
}

export interface Party {
  company: string;
  customer: string | null;
  address: string | null;
}

export interface EstimateDoc extends Party {
  number: string;
  title: string;
  documentType: string;
  validUntil: string | null;
  sentAt: string | null;
  scope: LineView[];
  packages: { name: string; lines: LineView[]; total: number | null }[];
  upgrades: { name: string; price: number }[];
  /** One price for the whole job, when the estimate has one. */
  price: number | null;
  total: number | null;
  /** What the total is: the price for the whole job stands until a package is chosen. */
  totalLabel: 'Total' | 'Price for the whole job';
  upgradesTotal: number | null;
  selectedTier: string | null;
  signerName: string | null;
  signedAt: string | null;
}

export interface InvoiceDoc extends Party {
  number: string;
  title: string | null;
  issueDate: string | null;
  dueDate: string | null;
  lines: LineView[];
  subtotal: number | null;
  discount: number | null;
  tax: number | null;
  taxRate: number | null;
  total: number;
  paid: number;
  balance: number;
  notes: string | null;
  terms: string | null;
}

export const lineView = (l: Line): LineView => ({
  name: l.name,
  quantity: l.quantity,
  unitPrice: l.unit_price,
  amount: l.unit_price === null ? null : dollars(lineCents(l.quantity, l.unit_price)),
  taxable: l.taxable,
});

/** A street address on one line: street, city, state and ZIP, leaving out what is unknown. */
export function addressLine(
  a: Pick<WorkspaceCollections['jobs'], 'city' | 'state' | 'postal_code'> & {
    address: string | null;
  },
): string | null {
  const place = [a.city, [a.state, a.postal_code].filter((p) => p).join(' ')]
    .filter((p) => p)
    .join(', ');
  return [a.address, place].filter((p) => p).join(', ') || null;
}
