import type { FamilyPages } from '../../../platform/family';
import { filesOnJob } from './on-job';
import { filePage } from './record';

export const filePages: FamilyPages = { routes: filePage, onJob: filesOnJob };
