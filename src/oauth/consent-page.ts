// The consent page's HTML: the page itself and its error page. Everything shown goes through
// escapeHtml, since the app's name, the workspaces' names and the query are other people's text.

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);

const ACCESS = {
  read: 'read your workspace’s records (jobs, contacts, tasks, estimates, invoices, payments, files), without changing them',
  write:
    'read and change your workspace’s records (jobs, contacts, tasks, estimates, invoices, payments, files), and delete them',
} as const;

export interface ConsentView {
  appName: string;
  clientId: string;
  redirectUri: string;
  state: string;
  scope: 'read' | 'write';
  token: string;
  /** The workspaces to pick from; none asked of one who proves a workspace by its token. */
  workspaces: { id: string; name: string }[];
  /**
   * A shared svc, and a person not signed in: the workspace is the one whose control token they
   * give (decisions.md, Control API access), and no workspace is listed.
   */
  byToken: boolean;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}fieldset{border:1px solid #ccc;border-radius:6px;padding:.6rem 1rem;margin:1rem 0}
label{display:block;padding:.25rem 0}.actions{display:flex;gap:.8rem}
button{font:inherit;padding:.45rem 1.2rem;border-radius:6px;border:1px solid #888;background:#fff;cursor:pointer}
button[value=allow]{background:#1f5fbf;border-color:#1f5fbf;color:#fff}.note{color:#555;font-size:.9rem}`;

function layout(title: string, nonce: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style></head><body>
${body}
</body></html>`;
}

/** The page: who asks, for what, which workspace, Allow or Deny. */
export function consentPage(v: ConsentView, nonce: string): string {
  const app = escapeHtml(v.appName);
  const radios = v.workspaces
    .map(
      (ws) =>
        `<label><input type="radio" name="workspace_id" value="${escapeHtml(ws.id)}" required> ${escapeHtml(ws.name)}</label>`,
    )
    .join('\n');
  const hidden = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  const choose = v.byToken
    ? `<fieldset><legend>Connect your workspace</legend>
<label>Its control token <input type="password" name="control_token" autocomplete="off" required></label>
</fieldset>`
    : v.workspaces.length > 0
      ? `<fieldset><legend>Connect this workspace</legend>\n${radios}\n</fieldset>`
      : '<p>You have no workspace to connect.</p>';
  const canAllow = v.byToken || v.workspaces.length > 0;
  return layout(
    `Connect ${v.appName}`,
    nonce,
    `<h1><span id="app-name">${app}</span> wants to connect to your workspace</h1>
<p id="access" data-scope="${v.scope}">It asks to ${ACCESS[v.scope]}.</p>
<form method="post" action="/oauth/authorize">
${hidden('client_id', v.clientId)}
${hidden('redirect_uri', v.redirectUri)}
${hidden('state', v.state)}
${hidden('scope', v.scope)}
${hidden('page_token', v.token)}
${choose}
<p class="note">Allowing sends you back to <code id="redirect">${escapeHtml(v.redirectUri)}</code>.
You can disconnect the app at any time in the workspace settings.</p>
<div class="actions">
<button type="submit" name="decision" value="allow"${canAllow ? '' : ' disabled'}>Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>`,
  );
}

/** Why the request cannot go on; never a redirect, since the redirect_uri may be the problem. */
export function errorPage(title: string, message: string, nonce: string): string {
  return layout(
    title,
    nonce,
    `<h1>${escapeHtml(title)}</h1>
<p id="message">${escapeHtml(message)}</p>
<p class="note">Go back to the app you came from and start again.</p>`,
  );
}
