import {
  comingIn,
  defineEvents,
  movedTo,
  type Occurrence,
  occurrence,
  whereField,
  whereSet,
} from '../../platform/family';

// spec, Events: the estimate lifecycle; decisions.md, they take no filters, and estimate.viewed
// fires on the first view (a homeowner opening it again only counts).
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
      description: 'An estimate was sent to the homeowner for signature.',
      about: whereField('status', 'sent', 'viewed', 'signed', 'declined'),
    },
    {
      event: 'estimate.viewed',
      label: 'Estimate viewed',
      description: 'The homeowner opened an estimate for the first time.',
      about: Object.assign(whereSet('first_viewed_at'), { fields: { status: 'viewed' } }),
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
  more: (was, now) => {
    const out: Occurrence[] = [];
    if (now === undefined || was === undefined) {
      return out;
    }
    if (movedTo(was, now, 'sent')) {
      out.push(occurrence('estimate.sent', now));
    }
    if (was.first_viewed_at === null && now.first_viewed_at !== null) {
      out.push(occurrence('estimate.viewed', now));
    }
    for (const status of ['signed', 'declined'] as const) {
      if (movedTo(was, now, status)) {
        out.push(occurrence(`estimate.${status}`, now));
      }
    }
    return out;
  },
});
