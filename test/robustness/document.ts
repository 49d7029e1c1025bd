import { widgetRoutes } from '../support/fixture-routes';
import { harness } from '../support/harness';

// Every operation of /v1/openapi.json and /__admin/openapi.json, read from the app at collection
// time: resources added later are covered without touching these tests.

export type Base = '/v1' | '/__admin';

export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  pattern?: string;
  minItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

interface MediaType {
  schema?: Schema;
}

interface DocOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
  security?: Record<string, string[]>[];
}

export interface Document {
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, DocOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface Operation {
  base: Base;
  method: string;
  path: string;
  doc: Document;
  op: DocOperation;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON body schema, resolved, when the operation takes JSON. */
  json: Schema | undefined;
  mediaTypes: string[];
  /** The credential middleware answers before anything else. */
  secured: boolean;
}

const VERBS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const ERROR_REF = '#/components/schemas/Error';

const probe = harness({ rateLimit: null }, { extend: widgetRoutes });

async function load(base: Base): Promise<Document> {
  const res = await (await probe.started()).app.request(`${base}/openapi.json`);
  return (await res.json()) as Document;
}

export function resolve(doc: Document, schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let hops = 0; s?.$ref !== undefined && hops < 10; hops++) {
    s = doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')];
  }
  return s;
}

function operationsOf(base: Base, doc: Document): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const verb of VERBS) {
      const op = item[verb];
      if (!op) {
        continue;
      }
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const jsonType = Object.keys(content).find((t) => /^application\/([\w.-]+\+)?json/i.test(t));
      const security = op.security ?? doc.security ?? [];
      out.push({
        base,
        method: verb.toUpperCase(),
        path,
        doc,
        op,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        json: jsonType === undefined ? undefined : resolve(doc, content[jsonType]?.schema),
        mediaTypes: Object.keys(content),
        secured: base === '/v1' && security.length > 0,
      });
    }
  }
  return out;
}

const documents = { '/v1': await load('/v1'), '/__admin': await load('/__admin') };
export const operations = [
  ...operationsOf('/v1', documents['/v1']),
  ...operationsOf('/__admin', documents['/__admin']),
];

/** Whether an error answer of this status is the spec's envelope for this operation. */
export function usesEnvelope(op: Operation, status: number): boolean {
  const content = op.op.responses?.[String(status)]?.content;
  if (!content) {
    return true;
  }
  const schema = content['application/json']?.schema;
  return schema === undefined || schema.$ref === ERROR_REF;
}
