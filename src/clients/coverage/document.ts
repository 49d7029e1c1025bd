// What coverage reads of a svc's /v1/openapi.json: its operations, which of them the request log
// can see, and its events (x-webhooks).

export interface Operation {
  /** Upper case, as the request log records a method. */
  method: string;
  /** The document's own key (`/contacts/{id}`), relative to the server's `/v1`. */
  path: string;
  operationId: string | null;
  /**
   * The request log records only calls made with a workspace credential (spec, Limits); an
   * operation whose `security` is `[]` (the OAuth token and revoke endpoints) is never in it.
   */
  logged: boolean;
}

export interface Document {
  operations: Operation[];
  /** The events of `x-webhooks`, in the document's order. */
  events: string[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'options', 'head', 'trace'];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The operations and events of an OpenAPI document; undefined when `doc` is none. */
export function readDocument(doc: unknown): Document | undefined {
  if (!isObject(doc) || typeof doc.openapi !== 'string' || !isObject(doc.paths)) {
    return undefined;
  }
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObject(item)) {
      continue;
    }
    for (const method of METHODS) {
      const op = item[method];
      if (isObject(op)) {
        operations.push({
          method: method.toUpperCase(),
          path,
          operationId: typeof op.operationId === 'string' ? op.operationId : null,
          logged: !(Array.isArray(op.security) && op.security.length === 0),
        });
      }
    }
  }
  const hooks = doc['x-webhooks'] ?? doc.webhooks;
  return { operations, events: isObject(hooks) ? Object.keys(hooks) : [] };
}
