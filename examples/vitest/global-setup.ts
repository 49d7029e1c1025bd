import { startSvc } from 'svc';
import type { TestProject } from 'vitest/node';

// One svc for the run: started before the first test file, stopped after the last.
export default async function setup(project: TestProject) {
  const svc = await startSvc({ profile: 'small' });
  project.provide('svc', {
    baseUrl: svc.baseUrl,
    appUrl: svc.appUrl,
    workspaceId: svc.workspace.id,
    writeKey: svc.workspace.keys.write,
  });
  return () => svc.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    svc: { baseUrl: string; appUrl: string; workspaceId: string; writeKey: string };
  }
}
