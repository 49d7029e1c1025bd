// What other families use of the pipelines family: they import it through here and
// nowhere else (test/architecture holds them to it).

export type { Pipeline, Stage } from './schema';
export { listPipelines, listStages, stagesOf } from './service';
