import { type FamilyPages, listOf } from '../../../platform/family';
import { stormListPage } from './record';

export const stormListPages: FamilyPages = {
  routes: stormListPage,
  workspace: {
    id: 'storm-lists',
    title: 'Storm lists',
    list: listOf('storm_lists', () => (s) => ({
      href: `/storm_lists/${s.id}`,
      label: s.name,
      detail: `${s.status} · ${s.property_count} properties`,
      at: s.created_at,
    })),
  },
};
