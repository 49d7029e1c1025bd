import type { Asset } from '../ui/assets';

// The docs' own script and styles, served from /_app (the Content-Security-Policy allows no inline
// script or style). The reference page reads which document to draw from its element, so the
// script is the same for both APIs and the choice works as a plain link.
const REFERENCE = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  if (!root || typeof window.SwaggerUIBundle !== 'function') {
    return;
  }
  root.textContent = '';
  window.ui = window.SwaggerUIBundle({
    url: root.getAttribute('data-openapi-url'),
    domNode: root,
    deepLinking: true,
    // swagger-ui would otherwise load a badge from validator.swagger.io: svc runs offline.
    validatorUrl: null,
    // Reading ?url= or ?configUrl= from the address would let a link draw a document from elsewhere.
    queryConfigEnabled: false,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
  });
})();
`;

// Copy buttons on the code examples: an enhancement only, the text is there to select without it.
const COPY = `'use strict';
(function () {
  var blocks = document.querySelectorAll('pre[data-copy]');
  if (!navigator.clipboard) {
    return;
  }
  blocks.forEach(function (pre) {
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(pre.textContent || '').then(function () {
        button.textContent = 'Copied';
        setTimeout(function () { button.textContent = 'Copy'; }, 1500);
      });
    });
    pre.parentNode.insertBefore(button, pre);
  });
})();
`;

const STYLE = `
nav.docs{display:flex;gap:1rem;flex-wrap:wrap;margin:0 0 1rem;font-size:.95rem}
nav.docs a[aria-current=page]{font-weight:600;color:var(--fg);text-decoration:none}
tr:target{background:#fff6d5}
.example{position:relative}
.example button.copy{position:absolute;right:.5rem;top:.4rem;font-size:.8rem;padding:.1rem .6rem}
.reference .swagger-ui .info{margin:1rem 0}
.reference .swagger-ui .scheme-container{box-shadow:none;padding:.5rem 0}
`;

export const DOCS_ASSETS: Asset[] = [
  { name: 'docs-reference.js', type: 'text/javascript', body: REFERENCE },
  { name: 'docs-copy.js', type: 'text/javascript', body: COPY },
  { name: 'docs.css', type: 'text/css', body: STYLE },
];
