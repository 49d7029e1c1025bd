import type { Asset } from '../ui/assets';

// The inspector's script and stylesheet. The pages read and act without them: the script only
// makes copy buttons work and prepends the request log's new rows as they are logged.

const SCRIPT = `(() => {
  'use strict';
  const MAX_ROWS = 500;
  const when = (iso) => iso.slice(0, 10) + ' ' + iso.slice(11, 19);

  for (const button of document.querySelectorAll('button[data-copy]')) {
    const target = document.getElementById(button.dataset.copy);
    if (!target) continue;
    button.hidden = false;
    button.addEventListener('click', () => {
      const text = target.textContent;
      const said = (word) => {
        button.textContent = word;
        setTimeout(() => { button.textContent = 'Copy'; }, 1500);
      };
      const select = () => {
        const range = document.createRange();
        range.selectNodeContents(target);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        said('Selected: press Ctrl+C');
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(() => said('Copied'), select);
      } else {
        select();
      }
    });
  }

  const rows = document.getElementById('request-rows');
  const stream = rows && rows.dataset.stream;
  if (!rows || !stream || !window.EventSource) return;
  const badge = document.querySelector('[data-live-state]');
  const state = (text, kind) => {
    if (!badge) return;
    badge.hidden = false;
    badge.textContent = text;
    badge.className = 'badge live ' + kind;
  };
  const link = (href, text) => {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = text;
    return a;
  };
  const cell = (content, cls) => {
    const td = document.createElement('td');
    if (cls) td.className = cls;
    if (content !== null) td.append(content);
    return td;
  };
  const statusBadge = (status) => {
    const span = document.createElement('span');
    const kind = status === 0 || status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok';
    span.className = 'badge ' + kind;
    span.textContent = status === 0 ? 'dropped' : String(status);
    return span;
  };
  const q = encodeURIComponent;
  const render = (r) => {
    const tr = document.createElement('tr');
    tr.className = 'fresh';
    tr.append(
      cell(link('/inspector/requests/' + q(r.id), when(r.at))),
      cell(r.method, 'mono'),
      cell(r.target, 'mono'),
      cell(statusBadge(r.status)),
      cell(r.duration_ms + ' ms', 'money'),
      cell(link('/inspector/requests?key_id=' + q(r.key_id), r.key)),
      cell(link('/inspector/requests?workspace_id=' + q(r.workspace_id), r.workspace)),
      cell(r.fault ? link('/inspector/requests?fault=' + q(r.fault), r.fault) : null, 'mono'),
    );
    return tr;
  };
  const source = new EventSource(stream);
  source.addEventListener('open', () => state('live', 'ok'));
  source.addEventListener('error', () => state('reconnecting', 'warn'));
  source.addEventListener('request', (event) => {
    let row;
    try {
      row = JSON.parse(event.data);
    } catch {
      return;
    }
    rows.prepend(render(row));
    const empty = document.getElementById('no-requests');
    if (empty) empty.remove();
    while (rows.children.length > MAX_ROWS) rows.lastElementChild.remove();
  });
})();
`;

const STYLE = `
label.inline{display:inline-block;margin:.3rem .8rem .3rem 0}
form.stack{display:block}
fieldset{border:1px solid var(--line);border-radius:6px;margin:.5rem 0;padding:.4rem .8rem}
legend{color:var(--muted);font-size:.85rem}
.badge.live{vertical-align:middle}
tr.fresh td{animation:fresh 2s ease-out}
@keyframes fresh{from{background:#fff6d5}to{background:transparent}}
td.snippet,td.signature{max-width:22rem;word-break:break-all;font-size:.8rem}
code.secret{background:#fff;border:1px solid var(--line);border-radius:4px;padding:.1rem .4rem;word-break:break-all}
section.delivery h3{margin:.2rem 0 .5rem;font-size:1rem}
table.attempts{margin:.6rem 0}
`;

export const INSPECTOR_ASSETS: Asset[] = [
  { name: 'inspector.js', type: 'text/javascript', body: SCRIPT },
  { name: 'inspector.css', type: 'text/css', body: STYLE },
];
