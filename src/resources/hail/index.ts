import type { Family } from '../../platform/family';

export const hail: Family = {
  name: 'hail',
};
