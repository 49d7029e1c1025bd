import { comingIn, defineEvents, enumFilter } from '../../platform/family';
import { FILE_CATEGORIES } from './schema';

// spec, Events: file.created, filtered by category.
export const fileEvents = defineEvents({
  resource: 'file',
  decls: [
    {
      event: 'file.created',
      label: 'File created',
      description: 'A photo or document was added to a job.',
      filters: [enumFilter('category', 'Category', FILE_CATEGORIES)],
      about: comingIn,
    },
  ],
  lifecycle: { created: 'file.created' },
});
