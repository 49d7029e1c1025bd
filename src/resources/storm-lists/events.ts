import { defineEvents, occurrence, whereField } from '../../platform/family';

// spec, Events: storm_list.ready, "a list finished building"; decisions.md, it takes no filters.
// decisions: it fires once, when a build finishes ready or partial (a partial list is ready to
// use, the cap having cut it); a failed build fires nothing, the spec naming no event for it.
export const stormListEvents = defineEvents({
  resource: 'storm_list',
  decls: [
    {
      event: 'storm_list.ready',
      label: 'Storm list ready',
      description: 'A storm list finished building.',
      about: whereField('status', 'ready', 'partial'),
    },
  ],
  more: (was, now) =>
    was?.status === 'building' && (now?.status === 'ready' || now?.status === 'partial')
      ? [occurrence('storm_list.ready', now)]
      : [],
});
