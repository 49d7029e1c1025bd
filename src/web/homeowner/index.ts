import type { Asset } from '../ui/assets';
import { HOMEOWNER_STYLE } from './style';

// The homeowner's pages (DESIGN.md, the web app): a job's portal_url, an estimate's view_url, an
// invoice's payment_url and the documents' PDFs. Each is its family's (Family.pages, in its
// folder); this folder holds what they are drawn with: the documents, the forms, the PDF writer
// and the style. They act through the same services as the control API's app-side actions, so
// the same rules hold and the same events fire.

export const HOMEOWNER_ASSETS: Asset[] = [
  { name: 'homeowner.css', type: 'text/css', body: HOMEOWNER_STYLE },
];
