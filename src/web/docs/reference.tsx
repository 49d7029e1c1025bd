import type { Context } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { Page } from '../ui/layout';
import { notFoundPage } from '../ui/not-found';
import { DocsNav } from './nav';
import { swaggerUi } from './swagger-files';

// The two documents svc describes itself with; `?api=` picks one, so the choice is a plain link
// that works (and can be shared) without script.
const APIS = {
  v1: { name: 'Workspace Operations API v1', document: '/v1/openapi.json' },
  admin: { name: 'Control API (/__admin)', document: '/__admin/openapi.json' },
} as const;

type ApiName = keyof typeof APIS;

const isApi = (name: string): name is ApiName => Object.hasOwn(APIS, name);

/** GET /docs: the docs' index and the API reference, drawn by swagger-ui from the document. */
export function referencePage(c: Context<AppEnv>) {
  const asked = c.req.query('api') ?? 'v1';
  if (!isApi(asked)) {
    return notFoundPage(c, 'such API reference');
  }
  const api = APIS[asked];
  const ui = swaggerUi();
  return c.html(
    <Page
      title="API reference"
      area="docs"
      styles={ui ? ['/docs/assets/swagger-ui.css', '/_app/docs.css'] : ['/_app/docs.css']}
      scripts={ui ? ['/docs/assets/swagger-ui-bundle.js', '/_app/docs-reference.js'] : []}
    >
      <h1>Docs</h1>
      <DocsNav current="/docs" />
      <p>
        The reference below is drawn from the OpenAPI document svc serves; errors and webhook
        signatures have pages of their own.
      </p>
      <nav class="tabs" aria-label="API">
        {Object.entries(APIS).map(([key, each]) => (
          <a href={`/docs?api=${key}`} aria-current={key === asked ? 'page' : undefined}>
            {each.name}
          </a>
        ))}
      </nav>
      <p>
        OpenAPI document: <a href={api.document}>{api.document}</a>
      </p>
      <noscript>
        <p class="notice">
          The interactive reference needs JavaScript; the OpenAPI document above holds all of it.
        </p>
      </noscript>
      {ui ? (
        <div class="reference">
          <div id="swagger-ui" data-openapi-url={api.document}>
            <p class="muted">Loading the reference…</p>
          </div>
          <p class="muted">
            Drawn by swagger-ui {ui.version} (<a href="/docs/assets/LICENSE">Apache-2.0</a>,{' '}
            <a href="/docs/assets/NOTICE">notice</a>), served by svc.
          </p>
        </div>
      ) : (
        <p class="notice">
          swagger-ui-dist is not installed beside svc (run <code>npm install</code>), so the
          reference cannot be drawn here; the OpenAPI document above holds all of it.
        </p>
      )}
    </Page>,
  );
}
