// spec, Errors rule 2: the token and revoke endpoints answer the standard OAuth body
// {error, error_description} (RFC 6749 §5.2), not the API's error envelope.
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  // spec, Errors: 409 conflict, "Idempotency-Key reused for a different request, or first
  // request with it still running", in the OAuth body (rule 2).
  | 'conflict';

export class OAuthError extends Error {
  readonly code: OAuthErrorCode;

  constructor(code: OAuthErrorCode, description: string) {
    super(description);
    this.code = code;
  }

  get status(): 400 | 401 | 409 {
    return this.code === 'invalid_client' ? 401 : this.code === 'conflict' ? 409 : 400;
  }
}
