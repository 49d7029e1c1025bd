// jest.config.js: { globalSetup: './global-setup.js', globalTeardown: './global-teardown.js' }
// Jest runs these in its own process; the test files read where svc is from the environment.
const { startSvc } = require('svc');

module.exports = async function globalSetup() {
  const svc = await startSvc({ profile: 'small' });
  globalThis.__SVC__ = svc;
  process.env.SVC_BASE_URL = svc.baseUrl;
  process.env.SVC_APP_URL = svc.appUrl;
  process.env.SVC_WORKSPACE_ID = svc.workspace.id;
  process.env.SVC_WRITE_KEY = svc.workspace.keys.write;
};
