import { afterAll, afterEach, beforeEach } from 'vitest';
import { settleTestStores, testStarts } from './test-store';

// In the `postgres` project, each harness's PostgreSQL store is checked against its memory and let
// go when the test that made it ends, or the file, for one made before its tests (test-store.ts).

beforeEach(testStarts);
afterEach(() => settleTestStores('test'));
afterAll(() => settleTestStores('file'));
