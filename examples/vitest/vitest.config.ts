import { defineConfig } from 'vitest/config';

// svc starts once for the whole run (global-setup.ts); each test file reads where it is.
export default defineConfig({
  test: {
    globalSetup: './global-setup.ts',
  },
});
