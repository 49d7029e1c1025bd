/**
 * The control API refused a call the library made for you: `status` and the spec's envelope
 * (`code`, `field`) as svc answered them, so a test can assert on them.
 */
export class SvcError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | null;

  constructor(status: number, code: string, message: string, field: string | null) {
    super(message);
    this.name = 'SvcError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}
