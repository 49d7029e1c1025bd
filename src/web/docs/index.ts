import { Hono } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { errorsPage } from './errors';
import { referencePage } from './reference';
import { signaturesPage } from './signatures';
import { swaggerFileRoutes } from './swagger-files';

export { DOCS_ASSETS } from './assets';

/** /docs (the API reference), /docs/errors, /docs/signatures and swagger-ui's files. */
export function docsRoutes() {
  return new Hono<AppEnv>()
    .get('/docs', referencePage)
    .get('/docs/errors', errorsPage)
    .get('/docs/signatures', signaturesPage)
    .route('/', swaggerFileRoutes());
}
