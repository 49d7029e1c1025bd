import { expect, test } from 'vitest';
import { operations } from './document';

test('both documents have operations to walk', () => {
  expect(operations.filter((o) => o.base === '/v1').length).toBeGreaterThan(5);
  expect(operations.filter((o) => o.base === '/__admin').length).toBeGreaterThan(5);
});
