import type { Family } from '../../platform/family';
import { contactEvents } from './events';
import { contactPages } from './pages';
import { contactRecords } from './present';
import { purgeContact } from './purge';
import { contactRoutes } from './routes';
import { ContactSchema } from './schema';

export const contacts: Family = {
  name: 'contacts',
  routes: contactRoutes,
  records: contactRecords,
  events: contactEvents,
  recoverable: { what: 'contact', noun: 'contact', schema: ContactSchema, purge: purgeContact },
  pages: contactPages,
  seed: () => import('./seed').then((m) => m.contactSeed),
};
