import { z } from '@hono/zod-openapi';
import { timestamp } from '../platform/openapi/schemas';

export const OAuthTokenSchema = z
  .object({
    access_token: z.string().openapi({ description: 'Prefix `svc_oat_`; valid 3600 seconds' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ description: 'Seconds (3600)' }),
    refresh_token: z
      .string()
      .openapi({ description: 'Prefix `svc_ort_`; the same for the life of the connection' }),
    scope: z.enum(['read', 'write']),
    workspace_id: z.uuid(),
    workspace: z.string().nullable(),
  })
  .openapi('OAuthToken');

export const OAuthErrorSchema = z
  .object({
    error: z.enum([
      'invalid_request',
      'invalid_client',
      'invalid_grant',
      'unsupported_grant_type',
      'conflict',
    ]),
    error_description: z.string(),
  })
  .openapi('OAuthError');

const client = {
  client_id: z.string().optional().openapi({ description: 'Or as the HTTP Basic user' }),
  client_secret: z.string().optional().openapi({ description: 'Or as the HTTP Basic password' }),
};

export const TokenRequestSchema = z
  .object({
    grant_type: z.enum(['authorization_code', 'refresh_token']),
    code: z.string().optional().openapi({ description: 'authorization_code: the code' }),
    redirect_uri: z
      .string()
      .optional()
      .openapi({ description: 'authorization_code: exactly the one authorised' }),
    refresh_token: z.string().optional().openapi({ description: 'refresh_token: the token' }),
    ...client,
  })
  .openapi('OAuthTokenRequest');

export const RevokeRequestSchema = z
  .object({
    token: z.string().openapi({ description: 'An access or a refresh token' }),
    token_type_hint: z
      .string()
      .optional()
      .openapi({
        description:
          'access_token or refresh_token; only a hint: the token is found whatever it says, and ' +
          'an unknown value is ignored (RFC 7009 §2.1)',
      }),
    ...client,
  })
  .openapi('OAuthRevokeRequest');

/** RFC 7009 §2.2: the client ignores the body of a revocation; it is an empty JSON object. */
export const OAuthRevokedSchema = z
  .object({})
  .strict()
  .openapi('OAuthRevoked', { description: 'An empty object' });

export const CreateAppSchema = z.object({
  name: z.string().trim().min(1).max(200),
  redirect_uris: z
    .array(
      z
        .url({ protocol: /^https?$/ })
        .refine((u) => !u.includes('#'), 'a redirect URI has no fragment'),
    )
    .min(1)
    .max(20),
});

export const CreatedAppSchema = z
  .object({ client_id: z.uuid(), client_secret: z.string() })
  .openapi('AdminCreatedOAuthApp');

export const OAuthAppSchema = z
  .object({
    client_id: z.uuid(),
    object: z.literal('oauth_app'),
    name: z.string(),
    redirect_uris: z.array(z.string()),
    created_at: timestamp(),
  })
  .openapi('AdminOAuthApp');

export const ConnectionSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('connection'),
    workspace_id: z.uuid(),
    client_id: z.uuid(),
    app_name: z.string().nullable(),
    scope: z.enum(['read', 'write']),
    created_at: timestamp(),
    disconnected_at: timestamp().nullable(),
  })
  .openapi('AdminConnection');
