import { defineEvents, enumFilter, occurrence, whereField } from '../../platform/family';
import { PAYER_TYPES, PAYMENT_METHODS, PAYMENT_TYPES } from './schema';

// decisions.md: payment events take payment_type, payer_type and payment_method.
const filters = [
  enumFilter('payment_type', 'Payment type', PAYMENT_TYPES),
  enumFilter('payer_type', 'Payer', PAYER_TYPES),
  enumFilter('payment_method', 'Payment method', PAYMENT_METHODS),
];

export const paymentEvents = defineEvents({
  resource: 'payment',
  decls: [
    {
      event: 'payment.received',
      label: 'Payment received',
      description:
        'A payment was recorded, whatever its status (an expected one too), or an expected one ' +
        'came in; the payment is carried as it now is, so `status` says which.',
      filters,
      about: whereField('is_refund', false),
    },
    {
      event: 'payment.refunded',
      label: 'Payment refunded',
      description: 'A refund was recorded: the refund payment (negative amount) is carried.',
      filters,
      about: whereField('is_refund', true),
    },
  ],
  // spec, POST /payments: "fires payment.received", an expected payment's recording included;
  // decisions.md: an expected one coming in fires it again. A refund is payment.refunded alone.
  more: (was, now) => {
    if (now === undefined) {
      return [];
    }
    if (now.is_refund === true) {
      return was === undefined ? [occurrence('payment.refunded', now)] : [];
    }
    const cameIn = was?.status === 'expected' && now.status !== 'expected';
    return was === undefined || cameIn ? [occurrence('payment.received', now)] : [];
  },
});
