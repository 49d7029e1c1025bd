import { comingIn, defineEvents, enumFilter, UPDATED } from '../../platform/family';
import { CONTACT_TYPES } from './schema';

const type = enumFilter('type', 'Contact type', CONTACT_TYPES);

// spec, Events: contact.created, contact.updated and contact.deleted, filtered by type.
export const contactEvents = defineEvents({
  resource: 'contact',
  decls: [
    {
      event: 'contact.created',
      label: 'Contact created',
      description: 'A contact was added.',
      filters: [type],
      about: comingIn,
    },
    {
      event: 'contact.updated',
      label: 'Contact updated',
      description: 'A contact changed; changed_fields lists what.',
      filters: [type],
      extras: UPDATED,
    },
    {
      event: 'contact.deleted',
      label: 'Contact deleted',
      description: 'A contact was deleted.',
      filters: [type],
      deleted: ['first_name', 'last_name', 'email', 'phone'],
    },
  ],
  lifecycle: { created: 'contact.created', updated: 'contact.updated', deleted: 'contact.deleted' },
});
