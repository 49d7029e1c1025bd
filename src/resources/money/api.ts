// The job's money, owned here and nowhere else: what a job is worth and has received, what is
// left due on it, an invoice's figures from its lines, and how payments settle an invoice. Jobs,
// invoices and payments present and move these figures; none of them works one out itself, so
// none of them needs another's code for it (issue 36).
export { invoiceCents, invoiceFigures } from './invoice-totals';
export { jobMoney, receivedByJob, receivedCents, syncReceived, totalJobValue } from './job';
export { isReceived } from './received';
export { paidCents, settle, settled, withPaid } from './settle';
