import { defineEvents, occurrence, whereField } from '../../platform/family';

// spec, States: "storm_list.ready is emitted when a list finishes building"; Events: "a list
// finished building". A build finishes ready, partial or failed, so it fires once for each of
// them, carrying the list as GET shows it: `status` tells a client waiting on it which. It takes
// no filters (decisions.md).
const FINISHED = ['ready', 'partial', 'failed'];

export const stormListEvents = defineEvents({
  resource: 'storm_list',
  decls: [
    {
      event: 'storm_list.ready',
      label: 'Storm list ready',
      description:
        'A storm list finished building: `status` is ready, partial (the property cap cut it) ' +
        'or failed (no property in the area had hail of the size asked for).',
      about: whereField('status', ...FINISHED),
    },
  ],
  more: (was, now) =>
    now !== undefined && was?.status === 'building' && FINISHED.includes(String(now.status))
      ? [occurrence('storm_list.ready', now)]
      : [],
});
