import { type GenerateOptions, generate } from '../../src/seed';

/** A generated workspace with each collection's records at hand ([] when it has none). */
export async function generated(opts: GenerateOptions) {
  const { workspace, collections: c } = await generate(opts);
  return {
    workspace,
    users: c.users ?? [],
    pipelines: c.pipelines ?? [],
    stages: c.stages ?? [],
    estimate_templates: c.estimate_templates ?? [],
    contacts: c.contacts ?? [],
    jobs: c.jobs ?? [],
    timeline: c.timeline ?? [],
    counters: c.counters ?? [],
    tasks: c.tasks ?? [],
    notes: c.notes ?? [],
  };
}
