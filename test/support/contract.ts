import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import route from '@stoplight/prism-http/dist/router';
import { validateInput, validateOutput } from '@stoplight/prism-http/dist/validator';
import type { IHttpOperation } from '@stoplight/types';
import { ErrorSchema } from '../../src/platform/openapi/schemas';

export interface Exchange {
  method: string;
  /** Path relative to the document's server (for /v1, without the /v1). */
  path: string;
  query: Record<string, string | string[]>;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: unknown;
}

type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
type Diagnostic = { message: string; path?: (string | number)[]; code?: string | number };

const describe = (diags: Diagnostic[]) =>
  diags.map((d) => `${(d.path ?? []).join('.')}: ${d.message}`).join('; ');

/**
 * Checks exchanges against an OpenAPI document with prism-http, as a client's own validator
 * would: a request the document does not describe, or a response it does not allow (an
 * undocumented status included), is a violation.
 */
export class Contract {
  readonly #operations: IHttpOperation[];

  private constructor(operations: IHttpOperation[]) {
    this.#operations = operations;
  }

  static async load(document: object): Promise<Contract> {
    return new Contract(await getHttpOperationsFromSpec(structuredClone(document)));
  }

  get operations(): readonly IHttpOperation[] {
    return this.#operations;
  }

  /**
   * The deliveries a document describes (`x-webhooks`), as operations a receiver is the server
   * of: `checkDelivery` then reads a received delivery as Prism reads a request.
   */
  static async deliveries(document: { 'x-webhooks'?: object }): Promise<Contract> {
    const paths = Object.fromEntries(
      Object.entries(document['x-webhooks'] ?? {}).map(([event, item]) => [
        `/__deliveries/${event}`,
        item,
      ]),
    );
    return Contract.load({ ...document, paths });
  }

  /** Violations of a delivery's description: its headers, and its body as its event's. */
  checkDelivery(headers: Record<string, string>, body: unknown): string[] {
    const event = String((body as { event_type?: unknown } | null)?.event_type);
    const input = {
      method: 'post' as const,
      url: { path: `/__deliveries/${event}`, query: {} },
      headers,
      body,
    };
    const matched = (route as unknown as (o: object) => Either<Error, IHttpOperation>)({
      resources: this.#operations,
      input,
    });
    if (matched._tag === 'Left') {
      return [`a delivery of ${event}, an event the document does not describe`];
    }
    const checked = validateInput({ resource: matched.right, element: input }) as Either<
      Diagnostic[],
      unknown
    >;
    return checked._tag === 'Left' ? [`delivery of ${event}: ${describe(checked.left)}`] : [];
  }

  /** Violations of the document; `deliberatelyInvalid` skips the request side. */
  check(ex: Exchange, deliberatelyInvalid = false): string[] {
    const input = {
      method: ex.method.toLowerCase() as 'get',
      url: { path: ex.path, query: ex.query },
      headers: ex.requestHeaders,
      body: ex.requestBody,
    };
    const matched = (route as unknown as (o: object) => Either<Error, IHttpOperation>)({
      resources: this.#operations,
      input,
    });
    if (matched._tag === 'Left') {
      // No operation for this method and path: only an error envelope may answer (404, 405).
      const parsed = ErrorSchema.safeParse(ex.responseBody);
      const problems = parsed.success
        ? []
        : [`unrouted answer is not an error envelope: ${parsed.error.message}`];
      if (![404, 405, 401, 413, 429].includes(ex.status)) {
        problems.push(`unrouted ${ex.method} ${ex.path} answered ${ex.status}`);
      }
      return problems;
    }
    const operation = matched.right;
    const problems: string[] = [];
    if (!deliberatelyInvalid) {
      const req = validateInput({ resource: operation, element: input }) as Either<
        Diagnostic[],
        unknown
      >;
      if (req._tag === 'Left') {
        problems.push(
          `request ${ex.method} ${ex.path} violates the document: ${describe(req.left)}`,
        );
      }
    }
    const res = validateOutput({
      resource: operation,
      element: { statusCode: ex.status, headers: ex.responseHeaders, body: ex.responseBody },
    }) as Either<Diagnostic[], unknown>;
    if (res._tag === 'Left') {
      problems.push(
        `response ${ex.status} to ${ex.method} ${ex.path} violates the document: ${describe(res.left)}`,
      );
    }
    return problems;
  }
}
