import type { FamilyPages } from '../../../platform/family';
import { Boards } from './boards';

export const pipelinePages: FamilyPages = {
  workspace: { id: 'boards', title: 'Boards', draw: (ctx) => <Boards ctx={ctx} /> },
};
