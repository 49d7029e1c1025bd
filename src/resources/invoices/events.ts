import { comingIn, defineEvents, whereField } from '../../platform/family';

// spec, Events: the invoice lifecycle; decisions.md, they take no filters. The status moves
// come with the invoices service.
export const invoiceEvents = defineEvents({
  resource: 'invoice',
  decls: [
    {
      event: 'invoice.created',
      label: 'Invoice created',
      description: 'An invoice was created (draft).',
      about: comingIn,
    },
    {
      event: 'invoice.sent',
      label: 'Invoice sent',
      description: 'An invoice was sent.',
      about: whereField('status', 'sent'),
    },
    {
      event: 'invoice.paid',
      label: 'Invoice paid',
      description: 'An invoice was paid in full.',
      about: whereField('status', 'paid'),
    },
    {
      event: 'invoice.overdue',
      label: 'Invoice overdue',
      description: 'A sent invoice passed its due date.',
      about: whereField('status', 'overdue'),
    },
    {
      event: 'invoice.voided',
      label: 'Invoice voided',
      description: 'An invoice was voided.',
      about: whereField('status', 'void'),
    },
  ],
  lifecycle: { created: 'invoice.created' },
});
