import { comingIn, defineEvents } from '../../platform/family';

// spec, Events: note.created; decisions.md, it takes no filters.
export const noteEvents = defineEvents({
  resource: 'note',
  decls: [
    {
      event: 'note.created',
      label: 'Note created',
      description: 'A note was added to a job.',
      about: comingIn,
    },
  ],
  lifecycle: { created: 'note.created' },
});
