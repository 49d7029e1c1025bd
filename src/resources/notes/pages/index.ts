import type { FamilyPages } from '../../../platform/family';
import { notesOnJob } from './on-job';

// A note has no page of its own: its `url` opens it on its job's page.
export const notePages: FamilyPages = { onJob: notesOnJob };
