import './credential';

export { findApp, issueCode, type OAuthAppView } from './consent';
export { oauthRoutes } from './routes';
