import { comingIn, defineEvents, whereField } from '../../platform/family';

// spec, Events: the estimate lifecycle; decisions.md, they take no filters. The status moves
// (sent, viewed, signed, declined) come with the estimates service.
export const estimateEvents = defineEvents({
  resource: 'estimate',
  decls: [
    {
      event: 'estimate.created',
      label: 'Estimate created',
      description: 'An estimate was created (draft).',
      about: comingIn,
    },
    {
      event: 'estimate.sent',
      label: 'Estimate sent',
      description: 'An estimate was sent to the homeowner.',
      about: whereField('status', 'sent'),
    },
    {
      event: 'estimate.viewed',
      label: 'Estimate viewed',
      description: 'The homeowner opened an estimate.',
      about: whereField('status', 'viewed'),
    },
    {
      event: 'estimate.signed',
      label: 'Estimate signed',
      description: 'The homeowner signed an estimate.',
      about: whereField('status', 'signed'),
    },
    {
      event: 'estimate.declined',
      label: 'Estimate declined',
      description: 'The homeowner declined an estimate.',
      about: whereField('status', 'declined'),
    },
  ],
  lifecycle: { created: 'estimate.created' },
});
