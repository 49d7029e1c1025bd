export {
  CONTROL_TOKEN_PREFIX,
  type ControlToken,
  mintControlToken,
  sameSecret,
} from './control-tokens';
export {
  API_KEY_PREFIX,
  appCredential,
  type Credential,
  identifyCredential,
  keyHashExists,
  mintApiKey,
  registerCredentialKind,
  resolveCredential,
} from './credentials';
export { authenticate, requirePlan, requireWrite } from './middleware';
export type { Access, ApiKey, Workspace } from './records';
