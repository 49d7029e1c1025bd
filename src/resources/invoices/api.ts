// What other families use of the invoices family: they import it through here and
// nowhere else (test/architecture holds them to it).

export { invoiceDoc } from './pages/document';
export { presentInvoice } from './present';
export type { Invoice } from './schema';
export { getInvoice, viewInvoice } from './service';
