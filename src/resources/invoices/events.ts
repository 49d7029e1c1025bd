import {
  comingIn,
  defineEvents,
  movedTo,
  type Occurrence,
  occurrence,
  whereField,
} from '../../platform/family';

// spec, Events: the invoice lifecycle; decisions.md, they take no filters. invoice.sent fires
// when an invoice first goes out, invoice.overdue once, when an unpaid one passes its due date.
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
      description: 'An invoice went out to the homeowner (its pay page turned on).',
      about: whereField('status', 'sent', 'viewed', 'partially_paid', 'overdue'),
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
      description: 'An unpaid invoice that is out passed its due date.',
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
  more: (was, now) => {
    const out: Occurrence[] = [];
    if (was === undefined || now === undefined) {
      return out;
    }
    if (was.sent_at === null && now.sent_at !== null) {
      out.push(occurrence('invoice.sent', now));
    }
    if (movedTo(was, now, 'paid')) {
      out.push(occurrence('invoice.paid', now));
    }
    // Once: an invoice back from paid to its overdue state (a refund) does not fire it again.
    if (movedTo(was, now, 'overdue') && was.status !== 'paid') {
      out.push(occurrence('invoice.overdue', now));
    }
    if (movedTo(was, now, 'void')) {
      out.push(occurrence('invoice.voided', now));
    }
    return out;
  },
});
