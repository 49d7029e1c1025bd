import type { Store } from '../../../store';

interface Where {
  workspaceId: string;
  jobId: string;
}

/**
 * Finds a job by its portal token (a `portal_url` names no workspace). Tokens are remembered as
 * found; one not known is looked for in every workspace's jobs, but only when the store has
 * changed since the last such look, so a stream of unknown tokens costs nothing more than a map
 * lookup each. A remembered answer is checked against the job itself, so a job deleted, purged
 * or restored from a workspace or store snapshot since is never answered from memory. With
 * several nodes, the jobs another node made count as changes too, as they are taken in.
 */
export class PortalIndex {
  readonly #store: Store;
  #byToken = new Map<string, Where>();
  #builtAt = '';
  /** Changes applied: this node's commits, and (several nodes) those taken in from others. */
  #applied = 0;

  constructor(store: Store) {
    this.#store = store;
    store.onApplied(() => {
      this.#applied += 1;
    });
  }

  find(token: string): Where | undefined {
    const known = this.#byToken.get(token);
    if (known && this.#holds(known, token)) {
      return known;
    }
    if (this.#builtAt === this.#shape()) {
      return undefined;
    }
    this.#rebuild();
    const found = this.#byToken.get(token);
    return found && this.#holds(found, token) ? found : undefined;
  }

  #holds(where: Where, token: string): boolean {
    return (
      !this.#store.isAway(where.workspaceId) &&
      this.#store.workspace(where.workspaceId).get('jobs', where.jobId)?.portal_token === token
    );
  }

  #rebuild(): void {
    const next = new Map<string, Where>();
    for (const ws of this.#store.global.values('workspaces')) {
      if (this.#store.isAway(ws.id)) {
        continue; // the door loaded the one holding the token, if any (platform/http/residency.ts)
      }
      for (const job of this.#store.workspace(ws.id).values('jobs')) {
        next.set(job.portal_token, { workspaceId: ws.id, jobId: job.id });
      }
    }
    this.#byToken = next;
    this.#builtAt = this.#shape();
  }

  /** What the index was built from: the changes, and the workspaces loaded (on PostgreSQL). */
  #shape(): string {
    return `${this.#applied}:${this.#store.residency?.loads ?? 0}`;
  }
}
