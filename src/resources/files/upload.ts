import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../platform/errors';
import type { FileStorage } from '../../platform/files/storage';
import { isMultipart } from '../../platform/http/body-limit';
import { issueToError } from '../../platform/openapi/validation';
import { type Fetched, fetchUrl, type Resolve } from './fetch-url';
import { type ReceivedFile, receiveMultipart } from './multipart';
import { type FileUploadFields, FileUploadFieldsSchema, FileUploadUrlSchema } from './schema';

// The two forms of POST /files (decisions.md, Files), read into one: what the upload says of the
// file, and its bytes in a temp file. The route checks what it can before bytes are fetched.

export interface Upload {
  input: FileUploadFields;
  file: ReceivedFile | Fetched;
}

export interface UploadDeps {
  storage: FileStorage;
  allowLocal: boolean;
  fetchIdleMs: number;
  resolve?: Resolve;
}

function valid<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const [first] = parsed.error.issues;
    throw first ? issueToError(first) : new ApiError('invalid_request', 'the request is invalid');
  }
  return parsed.data;
}

/** A multipart upload: the form read whole (the file to disk), then its fields checked. */
export async function formUpload(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  deps: UploadDeps,
): Promise<Upload> {
  const form = await receiveMultipart(body, contentType, deps.storage);
  const { file } = form;
  try {
    const input = valid(FileUploadFieldsSchema, formFields(form.fields));
    // An empty file input of an HTML form sends a part with no filename and no bytes: no file.
    if (file === undefined || (file.size === 0 && !file.filename)) {
      throw new ApiError('invalid_request', 'file is required: the part holding the bytes', 'file');
    }
    return { input, file };
  } catch (err) {
    await file?.incoming.discard();
    throw err;
  }
}

const SINGLE = ['job_id', 'category', 'description', 'name'] as const;

/** Form fields as the JSON form would send them: one value each, `tags` a list. */
function formFields(fields: Map<string, string[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of SINGLE) {
    const values = fields.get(name) ?? [];
    if (values.length > 1) {
      throw new ApiError('invalid_request', `send ${name} once`, name);
    }
    // An empty field of an HTML form says nothing.
    const [value] = values;
    if (value !== undefined && value.trim() !== '') {
      out[name] = value;
    }
  }
  const tags = [...(fields.get('tags') ?? []), ...(fields.get('tags[]') ?? [])];
  if (tags.length > 0) {
    out.tags = tags.flatMap(tagsOf);
  }
  return out;
}

/** One `tags` value: a JSON array of strings, or a comma-separated list. */
function tagsOf(value: string): string[] {
  // JSON that is no array of strings ({"a": 1}) is a mistake to point out, not a tag
  if (!/^\s*[[{]/.test(value)) {
    return value.split(',');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.some((t) => typeof t !== 'string')) {
    throw new ApiError(
      'invalid_request',
      'tags must be a JSON array of strings, or a comma-separated list',
      'tags',
    );
  }
  return parsed as string[];
}

/** A JSON upload naming a URL: the body checked, then (once `before` passes) the file fetched. */
export async function urlUpload(
  readJson: () => Promise<unknown>,
  deps: UploadDeps,
  before: (input: FileUploadFields) => void,
): Promise<Upload> {
  let body: unknown;
  try {
    body = await readJson();
  } catch (err) {
    throw err instanceof ApiError
      ? err
      : new ApiError('invalid_request', 'the request body is not valid JSON');
  }
  const { url, ...input } = valid(FileUploadUrlSchema, body);
  before(input);
  const file = await fetchUrl(url, {
    allowLocal: deps.allowLocal,
    idleMs: deps.fetchIdleMs,
    storage: deps.storage,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  });
  return { input, file };
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json(;|$)/i;

/** Which form a request's Content-Type names; 400 for any other (decisions.md: not 415). */
export function uploadForm(contentType: string | undefined): 'multipart' | 'json' {
  if (isMultipart(contentType)) {
    return 'multipart';
  }
  if (contentType !== undefined && JSON_TYPE.test(contentType.trim())) {
    return 'json';
  }
  throw new ApiError(
    'invalid_request',
    'send the file as multipart/form-data, or JSON naming a url, with the matching Content-Type',
  );
}
