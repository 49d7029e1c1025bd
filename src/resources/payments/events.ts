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
      description: 'A payment was recorded as received (or an expected one came in).',
      filters,
      about: (body) => body.is_refund === false && body.status !== 'expected',
    },
    {
      event: 'payment.refunded',
      label: 'Payment refunded',
      description: 'A refund was recorded: the refund payment (negative amount) is carried.',
      filters,
      about: whereField('is_refund', true),
    },
  ],
  // Recorded as received, or an expected payment coming in; a refund is payment.refunded alone.
  more: (was, now) => {
    if (now === undefined) {
      return [];
    }
    if (now.is_refund === true) {
      return was === undefined ? [occurrence('payment.refunded', now)] : [];
    }
    return now.status !== 'expected' && (was === undefined || was.status === 'expected')
      ? [occurrence('payment.received', now)]
      : [];
  },
});
