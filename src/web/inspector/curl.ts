import type { LoggedRequest } from '../../platform/request-log';

/** A word for a POSIX shell, taken literally: single quotes, each ' inside written '\''. */
export const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** What a copied command cannot carry, said beside it. */
export interface CurlCommand {
  command: string;
  caveats: string[];
}

/**
 * A logged call as a curl command that sends it again: method, the full URL with its query, the
 * headers the log kept, and the body byte for byte. Keys are never logged, so the credential is
 * `$SVC_KEY`, in double quotes so the shell fills it in from the environment.
 */
export function curlOf(
  entry: Pick<
    LoggedRequest,
    | 'method'
    | 'path'
    | 'query'
    | 'request_headers'
    | 'request_body'
    | 'request_body_truncated'
    | 'credential_kind'
  >,
  origin: string,
): CurlCommand {
  const caveats: string[] = [];
  const query = new URLSearchParams(entry.query).toString();
  const url = `${origin}${entry.path}${query === '' ? '' : `?${query}`}`;
  const lines = [
    entry.method === 'GET'
      ? `curl ${shellQuote(url)}`
      : entry.method === 'HEAD'
        ? `curl --head ${shellQuote(url)}`
        : `curl -X ${entry.method} ${shellQuote(url)}`,
    '-H "Authorization: Bearer $SVC_KEY"',
  ];
  const body = entry.request_body;
  const upload = body !== null && /^\[multipart body, .* bytes\]$/.test(body);
  for (const [name, value] of Object.entries(entry.request_headers)) {
    // An upload's Content-Type names the boundary of bytes the log does not have; -F makes its own.
    if (!(upload && name === 'content-type')) {
      lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
    }
  }
  if (upload) {
    caveats.push(
      'The log keeps no bytes of an upload: add the file yourself, e.g. -F file=@photo.jpg.',
    );
  } else if (body !== null) {
    lines.push(`--data-raw ${shellQuote(body)}`);
    if (entry.request_body_truncated) {
      caveats.push('The log kept only the first 16 KB of the body: the command sends that much.');
    }
  }
  if (entry.credential_kind === 'oauth_token') {
    caveats.push('This call was made with an OAuth access token: set SVC_KEY to one.');
  }
  return { command: lines.join(' \\\n  '), caveats };
}
