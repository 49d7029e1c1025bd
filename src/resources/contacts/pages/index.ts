import { type FamilyPages, listOf } from '../../../platform/family';
import { contactName } from '../present';
import { contactPage } from './record';

export const contactPages: FamilyPages = {
  routes: contactPage,
  workspace: {
    id: 'contacts',
    title: 'Contacts',
    list: listOf('contacts', () => (c) => ({
      href: `/contacts/${c.id}`,
      label: contactName(c),
      detail: c.type,
      at: c.created_at,
    })),
  },
};
