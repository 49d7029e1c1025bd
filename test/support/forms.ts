// Reading the pages svc writes as a browser does: the text of an attribute, and the hidden
// fields a form posts back. Regexes on svc's own HTML, whose shape the page tests pin.

/** An attribute's text, its entities decoded (`&amp;` last, so `&amp;lt;` stays `&lt;`). */
export const htmlText = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The hidden fields of `html` (of the form posting to `action`, when named), as posted back. */
export function hiddenFields(html: string, action?: string): Record<string, string> {
  let scope = html;
  if (action !== undefined) {
    const form = new RegExp(
      `<form[^>]*action="${action.replace(/[.?]/g, '\\$&')}"[^>]*>([\\s\\S]*?)</form>`,
    ).exec(html);
    if (!form) {
      throw new Error(`no form posting to ${action}`);
    }
    scope = form[1] ?? '';
  }
  const out: Record<string, string> = {};
  for (const m of scope.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    out[m[1] ?? ''] = htmlText(m[2] ?? '');
  }
  return out;
}
