import './credential';

export { oauthAdmin } from './admin';
export { findApp, issueCode, type OAuthAppView } from './consent';
export { consentRoutes } from './consent-routes';
export { oauthRoutes } from './routes';
