import { type FamilyPages, listOf } from '../../../platform/family';
import { text } from '../../../web/ui/parts';
import { pinPages as routes } from './record';

export const pinPages: FamilyPages = {
  routes,
  workspace: {
    id: 'pins',
    title: 'Pins',
    list: listOf('pins', () => (p) => ({
      href: `/pins/${p.id}`,
      label: text(p.address),
      detail: p.knock_result ?? p.pin_type,
      at: p.created_at,
    })),
  },
};
