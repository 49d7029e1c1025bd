import type { z } from '@hono/zod-openapi';
import type { FaultInputSchema, FaultSchema } from '../admin/faults';
import type { AuthorizeSchema } from '../admin/oauth-authorize';
import type { DeliverySchema } from '../admin/webhooks';
import type { ErrorCode } from '../platform/errors';
import type { LoggedRequest as Logged } from '../platform/request-log';
import type * as Public from './types';

// The library's public types (./types.ts, shipped as they are) checked against what svc really
// answers and takes, at compile time: a field renamed or retyped on one side fails typecheck.

/** `B` is assignable to `A`. */
type Fits<A, B extends A> = [A, B];

export type Conformance = [
  // What svc answers is what the library promises.
  Fits<Public.Delivery, z.infer<typeof DeliverySchema>>,
  Fits<Public.Fault, z.infer<typeof FaultSchema>>,
  Fits<Public.LoggedRequest, Logged>,
  // What the library sends is what svc takes.
  Fits<z.input<typeof FaultInputSchema>, Public.FaultInput>,
  Fits<z.input<typeof AuthorizeSchema>, Public.AuthorizeInput>,
  // The codes are the spec's, no more and no fewer.
  Fits<Public.ErrorCode, ErrorCode>,
  Fits<ErrorCode, Public.ErrorCode>,
];
