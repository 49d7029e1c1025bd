import { z } from 'zod';

// The scenario file (DESIGN.md "A scenario file", extended in FORMAT.md). Strict objects: a
// misspelt key (`expects`, `captures`) is a bad file, not a step that silently checks nothing.

const json = z.json();
const scalar = z.union([z.string(), z.number(), z.boolean()]);
const method = z
  .string()
  .regex(/^[A-Za-z]+$/, 'an HTTP method')
  .transform((m) => m.toUpperCase());

export const RequestSchema = z
  .strictObject({
    method,
    path: z.string().min(1),
    query: z.record(z.string(), scalar).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: json.optional(),
    /** Sent as text: numbers and booleans too (`quantity: 2`). */
    form: z.record(z.string(), scalar).optional(),
    multipart: z
      .strictObject({
        fields: z.record(z.string(), scalar).optional(),
        file: z
          .strictObject({
            field: z.string().default('file'),
            filename: z.string().min(1),
            content_type: z.string().optional(),
            content: z.string().optional(),
            base64: z.string().optional(),
            path: z.string().optional(),
          })
          .refine(
            (f) => [f.content, f.base64, f.path].filter((v) => v !== undefined).length <= 1,
            'give one of content, base64 or path',
          ),
      })
      .optional(),
    key: z
      .string()
      .regex(
        /^(write|read|none|\{\{\s*[A-Za-z_][\w-]*(\.[\w-]+)*\s*\}\})$/,
        'write, read, none or a captured token ({{name}})',
      )
      .optional(),
    repeat: z.number().int().min(1).max(1000).optional(),
    /** trigger recipes (FORMAT.md): also accepted beside the step's kind. */
    override: z.boolean().optional(),
  })
  .refine(
    (r) => [r.body, r.form, r.multipart].filter((v) => v !== undefined).length <= 1,
    'a request sends one of body, form or multipart',
  );

export const AdminSchema = z.strictObject({
  method,
  path: z.string().startsWith('/__admin', 'an admin path starts with /__admin'),
  query: z.record(z.string(), scalar).optional(),
  body: json.optional(),
  override: z.boolean().optional(),
});

export const WebhookSchema = z.strictObject({
  event: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  filters: z.record(z.string(), json).optional(),
});

export const DeliverySchema = z.strictObject({
  event: z.string().min(1),
  within_ms: z.number().int().min(0).max(600_000).optional(),
  body: json.optional(),
  headers: z.record(z.string(), json).optional(),
  none: z.literal(true).optional(),
});

export const ClockSchema = z
  .strictObject({ advance: z.number().min(0).optional(), set: z.string().min(1).optional() })
  .refine((c) => (c.advance === undefined) !== (c.set === undefined), 'one of advance or set')
  .transform((c): { advance: number } | { set: string } =>
    c.advance !== undefined ? { advance: c.advance } : { set: c.set ?? '' },
  );

export const ExpectSchema = z.strictObject({
  status: json.optional(),
  headers: z.record(z.string(), json).optional(),
  body: json.optional(),
});

export const STEP_KINDS = ['request', 'admin', 'webhook', 'delivery', 'clock'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const StepSchema = z
  .strictObject({
    name: z.string().optional(),
    request: RequestSchema.optional(),
    admin: AdminSchema.optional(),
    webhook: WebhookSchema.optional(),
    delivery: DeliverySchema.optional(),
    clock: ClockSchema.optional(),
    expect: ExpectSchema.optional(),
    capture: z
      .record(z.string().regex(/^[A-Za-z_][\w-]*$/, 'a capture name'), z.string())
      .optional(),
    override: z.boolean().optional(),
  })
  .superRefine((step, ctx) => {
    const kinds = STEP_KINDS.filter((k) => step[k] !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          kinds.length === 0
            ? `a step needs one of ${STEP_KINDS.join(', ')}`
            : `a step has exactly one kind, not ${kinds.join(' and ')}`,
      });
    }
  });

export const ScenarioSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  profile: z.enum(['empty', 'small', 'demo']).default('empty'),
  steps: z.array(StepSchema).min(1),
  /** Run after `steps` whatever happened (even after a failure): undo what the steps changed. */
  teardown: z.array(StepSchema).optional(),
});

export type Step = z.infer<typeof StepSchema>;
export type Scenario = z.infer<typeof ScenarioSchema>;
export type RequestSpec = z.infer<typeof RequestSchema>;
export type AdminSpec = z.infer<typeof AdminSchema>;
export type WebhookSpec = z.infer<typeof WebhookSchema>;
export type DeliverySpec = z.infer<typeof DeliverySchema>;
export type ClockSpec = z.infer<typeof ClockSchema>;
export type Expect = z.infer<typeof ExpectSchema>;

/** The kind of a validated step (the schema made sure there is exactly one). */
export function kindOf(step: Step): StepKind {
  return STEP_KINDS.find((k) => step[k] !== undefined) ?? 'request';
}
