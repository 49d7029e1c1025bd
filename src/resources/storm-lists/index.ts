import { defineEvents, type Family, whereField } from '../../platform/family';

// Storm lists: storm_list.ready is in the catalogue (and may be subscribed to) before svc builds
// storm lists; decisions.md, it takes no filters.
export const stormLists: Family = {
  name: 'storm-lists',
  events: defineEvents({
    resource: 'storm_list',
    decls: [
      {
        event: 'storm_list.ready',
        label: 'Storm list ready',
        description: 'A storm list finished building.',
        about: whereField('status', 'ready', 'partial'),
      },
    ],
  }),
};
