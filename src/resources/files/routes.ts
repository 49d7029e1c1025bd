import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { requireWrite } from '../../platform/auth';
import { ApiError } from '../../platform/errors';
import type { RouteDeps } from '../../platform/family';
import { jsonResponse } from '../../platform/openapi/responses';
import {
  changeErrors,
  getOperation,
  listOperation,
  pageAnswer,
  recordAnswer,
  recordId,
} from '../common/routing';
import { bareType, inspect } from './inspect';
import { fileRecords } from './present';
import {
  FileListQuery,
  FileListSchema,
  FileSchema,
  FileUploadFormSchema,
  FileUploadUrlSchema,
} from './schema';
import { addFile, checkUpload, getFile, listFiles } from './service';
import { formUpload, type Upload, type UploadDeps, uploadForm, urlUpload } from './upload';

const list = listOperation({
  path: '/files',
  operationId: 'listFiles',
  summary: 'Files and photos, newest first',
  tags: ['Files'],
  query: FileListQuery,
  schema: FileListSchema,
  description: 'A page of files',
});

const getOne = getOperation({
  path: '/files/{id}',
  operationId: 'getFile',
  summary: 'One file',
  tags: ['Files'],
  schema: FileSchema,
  description: 'The file',
});

// Documented here, served by a plain handler: a validator of the multipart form would read the
// whole body into memory, where the upload streams it to disk (decisions.md, Files).
const upload = createRoute({
  method: 'post',
  path: '/files',
  operationId: 'uploadFile',
  summary: 'Upload a file: multipart/form-data, or JSON naming a URL svc fetches it from',
  description:
    'At most 25 MB (413 payload_too_large). `mime_type` is read from the bytes; a photo’s ' +
    'position and time from its EXIF. Fires `file.created`.',
  tags: ['Files'],
  request: {
    body: {
      required: true,
      content: {
        'multipart/form-data': { schema: FileUploadFormSchema },
        'application/json': { schema: FileUploadUrlSchema },
      },
    },
  },
  responses: { 201: jsonResponse(FileSchema, 'The file'), ...changeErrors() },
});

export function fileRoutes(deps: RouteDeps) {
  const storage = deps.files;
  const uploads: UploadDeps = {
    storage,
    allowLocal: deps.config.allowLocalTargets,
    fetchIdleMs: deps.config.fileFetchTimeoutMs,
  };
  const app = new OpenAPIHono<AppEnv>()
    .openapi(list, (c) => {
      const ctx = c.get('ctx');
      const q = c.req.valid('query');
      return pageAnswer(c, deps, 'files', q, (after) => listFiles(ctx, q, after), fileRecords);
    })
    .openapi(getOne, (c) => recordAnswer(c, fileRecords, getFile(c.get('ctx'), recordId(c)), 200));
  app.openAPIRegistry.registerPath(upload);
  app.post('/files', requireWrite(), (c) => uploadFile(c, uploads));
  return app;
}

async function uploadFile(c: Context<AppEnv>, deps: UploadDeps) {
  const ctx = c.get('ctx');
  const type = c.req.header('content-type');
  const body = c.req.raw.body;
  let sent: Upload;
  if (uploadForm(type) === 'multipart') {
    if (body === null) {
      throw new ApiError('invalid_request', 'file is required: the part holding the bytes', 'file');
    }
    sent = await formUpload(body, type ?? '', deps);
  } else {
    sent = await urlUpload(
      () => c.req.json(),
      deps,
      (input) => checkUpload(ctx, input),
    );
  }
  const { file } = sent;
  let seen: Awaited<ReturnType<typeof inspect>>;
  try {
    const declared = bareType(file.declaredType);
    seen = await inspect(file.incoming.path, file.size, declared, ctx.workspace.timezone);
  } catch (err) {
    await file.incoming.discard();
    throw err;
  }
  const rec = await addFile(ctx, deps.storage, sent.input, file, seen);
  return recordAnswer(c, fileRecords, rec, 201);
}
