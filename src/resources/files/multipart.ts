import { Readable, type Readable as ReadableStreamNode } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type busboy from 'busboy';
import { ApiError } from '../../platform/errors';
import type { FileStorage, Incoming } from '../../platform/files/storage';
import { MAX_FILE_BYTES, tooLarge } from '../../platform/http/body-limit';

// decisions.md, Files: `POST /files` as multipart/form-data, read by busboy as it streams: the
// `file` part goes straight to a temp file on disk, counted against the 25 MB cap, and the text
// fields (`job_id`, `category`, `description`, `tags`, `name`) are gathered beside it, in any
// order. Whatever goes wrong (a file over the cap, a malformed body, a client that goes away),
// the temp file is removed before the answer is made: nothing of a refused upload is kept.

/** A file part, written to disk and fsynced. */
export interface ReceivedFile {
  incoming: Incoming;
  size: number;
  /** As the part named it; undefined when it named none. */
  filename: string | undefined;
  /** The part's declared Content-Type. */
  declaredType: string | undefined;
}

export interface FormUpload {
  /** Each text field's values, in the order sent (a field may repeat: `tags`). */
  fields: Map<string, string[]>;
  file: ReceivedFile | undefined;
}

const LIMITS = {
  // busboy calls a file that reaches its limit truncated: one byte more is the first refused.
  fileSize: MAX_FILE_BYTES + 1,
  files: 4,
  fields: 100,
  parts: 110,
  fieldSize: 64 * 1024,
} satisfies busboy.Limits;

const malformed = (why: string) =>
  new ApiError('invalid_request', `the multipart body is malformed: ${why}`);

/** Reads a multipart body to its end; rejects (having removed its temp file) on any failure. */
export async function receiveMultipart(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  storage: FileStorage,
): Promise<FormUpload> {
  const parser = await parserFor(contentType);
  const source = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
  return new Promise<FormUpload>((resolve, reject) => {
    const form = new FormReader(source, parser, storage, resolve, reject);
    parser.on('field', (name, value, info) => form.field(name, value, info));
    parser.on('file', (name, stream, info) => form.file(name, stream, info));
    parser.on('filesLimit', () => form.fail(malformed('too many file parts')));
    parser.on('fieldsLimit', () => form.fail(malformed('too many fields')));
    parser.on('partsLimit', () => form.fail(malformed('too many parts')));
    parser.on('error', (err: Error) => form.fail(malformed(err.message.toLowerCase())));
    parser.on('close', () => form.close());
    source.on('error', (err) =>
      form.fail(err instanceof ApiError ? err : malformed('the body ended before its last part')),
    );
    source.pipe(parser);
  });
}

async function parserFor(contentType: string): Promise<busboy.Busboy> {
  const { default: Busboy } = await import('busboy');
  try {
    return Busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: LIMITS,
    });
  } catch (err) {
    throw new ApiError(
      'invalid_request',
      `Content-Type: ${(err as Error).message.toLowerCase()}`,
      'Content-Type',
    );
  }
}

/** One multipart body as busboy reads it: its text fields so far, its file as it is written. */
class FormReader {
  readonly #fields = new Map<string, string[]>();
  #writing: Promise<ReceivedFile> | undefined;
  #failed = false;

  constructor(
    private readonly source: ReadableStreamNode,
    private readonly parser: busboy.Busboy,
    private readonly storage: FileStorage,
    private readonly resolve: (form: FormUpload) => void,
    private readonly reject: (err: unknown) => void,
  ) {}

  readonly fail = (err: unknown): void => {
    if (this.#failed) {
      return;
    }
    this.#failed = true;
    this.source.unpipe(this.parser);
    this.source.destroy();
    this.parser.destroy();
    // The temp file goes before the answer does.
    const written = this.#writing ?? Promise.resolve(undefined);
    void written
      .then(
        (file) => file?.incoming.discard(),
        () => undefined,
      )
      .finally(() => this.reject(err));
  };

  field(name: string, value: string, info: busboy.FieldInfo): void {
    if (name === 'file') {
      this.#textFile(name, value, info);
      return;
    }
    if (info.nameTruncated || info.valueTruncated) {
      this.fail(new ApiError('invalid_request', `${name} is too long`, name));
      return;
    }
    this.#fields.set(name, [...(this.#fields.get(name) ?? []), value]);
  }

  // A file part with no filename and no type of its own (`curl -F 'file=<notes.txt'`) arrives as
  // text: it is the file all the same; an empty one is no file.
  #textFile(name: string, value: string, info: busboy.FieldInfo): void {
    if (this.#writing !== undefined) {
      this.fail(new ApiError('invalid_request', 'send one file, in the part named file', name));
    } else if (info.valueTruncated) {
      this.fail(
        new ApiError(
          'invalid_request',
          'a file part without a filename may hold at most 64 KB: send it with a filename',
          name,
        ),
      );
    } else if (value !== '') {
      const text = Readable.from([Buffer.from(value, 'utf8')]);
      this.#write(text, { ...info, filename: undefined });
    }
  }

  file(name: string, stream: Readable, info: busboy.FileInfo): void {
    // A part cut short errs when the form does, which `fail` answers; the pipeline of writeFile
    // takes this stream's errors over once the temp file is open.
    stream.on('error', () => undefined);
    if (name !== 'file' || this.#writing !== undefined) {
      stream.resume();
      this.fail(
        new ApiError(
          'invalid_request',
          'send one file, in the part named file; other fields are text',
          name,
        ),
      );
      return;
    }
    // busboy is still inside its own write when it says so: stop once it is out of it.
    stream.once('limit', () => setImmediate(() => this.fail(tooLarge('the file'))));
    this.#write(stream, info);
  }

  #write(stream: ReadableStreamNode & { truncated?: boolean }, info: busboy.FileInfo): void {
    this.#writing = writeFile(stream, info, this.storage);
    this.#writing.catch(this.fail);
  }

  close(): void {
    if (this.#failed) {
      return;
    }
    (this.#writing ?? Promise.resolve(undefined)).then(
      (file) =>
        this.#failed ? file?.incoming.discard() : this.resolve({ fields: this.#fields, file }),
      this.fail,
    );
  }
}

async function writeFile(
  stream: ReadableStreamNode & { truncated?: boolean },
  info: busboy.FileInfo,
  storage: FileStorage,
): Promise<ReceivedFile> {
  const incoming = await storage.incoming();
  try {
    const out = incoming.writable();
    await pipeline(stream, out);
    if (stream.truncated || out.bytesWritten > MAX_FILE_BYTES) {
      throw tooLarge('the file');
    }
    return {
      incoming,
      size: out.bytesWritten,
      filename: info.filename,
      declaredType: info.mimeType,
    };
  } catch (err) {
    await incoming.discard();
    throw err;
  }
}
