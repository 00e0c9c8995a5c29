import { finished, PassThrough, type Readable } from "node:stream";
import type { Multipart } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { invalidRequest, ServiceError } from "../errors.js";
import { MAX_FILE_BYTES, type UploadPart } from "../files/files-service.js";
import { ClosingDelimiterWatch, multipartBoundary } from "./multipart-boundary.js";

const incompleteBody = () =>
  invalidRequest(
    "The multipart body ended before its closing boundary: it was cut off, or the closing boundary is misspelled.",
    "incomplete_multipart_body",
  );

const tooManyFields = () =>
  invalidRequest(
    "Too many form fields: send 'purpose', 'file' and 'expires_after' only.",
    "too_many_form_fields",
  );

/** The multipart parser's own errors, by code, as the catalogue reports them. */
const PARSER_ERRORS: Record<string, () => ServiceError> = {
  FST_FILES_LIMIT: () =>
    invalidRequest("Send exactly one file, in the field 'file'.", "invalid_file_field", "file"),
  FST_FIELDS_LIMIT: tooManyFields,
  FST_PARTS_LIMIT: tooManyFields,
  FST_REQ_FILE_TOO_LARGE: () =>
    new ServiceError("too_large", `File is larger than the limit of ${MAX_FILE_BYTES} bytes.`, {
      code: "file_too_large",
      param: "file",
    }),
  FST_PROTO_VIOLATION: () =>
    invalidRequest("A form field name may not be an Object property name.", "invalid_form_field"),
  FST_INVALID_JSON_FIELD_ERROR: () =>
    invalidRequest(
      "A form field declared as application/json is not valid JSON.",
      "invalid_form_field",
    ),
};

/** Every failure while reading the form comes from what the client sent. */
function parserFailure(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const code = (error as { code?: unknown }).code;
  const known = typeof code === "string" ? PARSER_ERRORS[code] : undefined;
  if (known) return known();
  return invalidRequest(
    `The multipart body is malformed: ${(error as Error).message}.`,
    "malformed_multipart_body",
  );
}

/**
 * Why the parser stopped inside a file part: the error it has queued (a limit, say), or else a
 * body that ended too soon. Later parts are skipped on the way.
 */
async function whyFileWasCut(parser: AsyncIterator<Multipart>): Promise<ServiceError> {
  for (;;) {
    let step: IteratorResult<Multipart>;
    try {
      step = await parser.next();
    } catch (error) {
      return parserFailure(error);
    }
    if (step.done) return incompleteBody();
    if (step.value.type === "file") step.value.file.resume();
  }
}

/**
 * The service drops a file sent in the wrong field unread, and its later failure must not crash
 * the process; a consumer still gets every error through its own listener or pipeline.
 */
const ignoreError = () => undefined;

/**
 * The file's bytes, failing with a 4xx when the parser cuts the part short. It destroys a file
 * part without an error when it stops inside one, which a pipeline would wait on forever.
 * Only 'end' proves the part complete: an empty part cut off is destroyed after its end was
 * pushed but before 'end' is emitted, which `finished` reports as a success.
 */
function completeFile(file: Readable, parser: AsyncIterator<Multipart>): Readable {
  const bytes = new PassThrough();
  bytes.on("error", ignoreError);
  let consumerGone = false;
  bytes.once("close", () => {
    if (file.readableEnded) return;
    consumerGone = true;
    file.destroy();
  });
  finished(file, () => {
    if (file.readableEnded || consumerGone) return;
    void whyFileWasCut(parser).then((reason) => bytes.destroy(reason));
  });
  return file.pipe(bytes);
}

/** The multipart form as the files service reads it: fields and one streamed file, in order. */
export async function* uploadParts(request: FastifyRequest): AsyncGenerator<UploadPart> {
  if (!request.isMultipart()) {
    throw new ServiceError(
      "unsupported_media_type",
      "Uploads must be sent as multipart/form-data with the fields 'file' and 'purpose'.",
      { code: "unsupported_media_type" },
    );
  }
  const body = new ClosingDelimiterWatch(multipartBoundary(request.headers["content-type"]));
  // Attached in the same tick the parser starts reading, so both see every chunk.
  request.raw.on("data", (chunk: Buffer) => body.observe(chunk));
  // One byte over the limit reaches the service, which reports the file as too large.
  const parser = request.parts({ limits: { fileSize: MAX_FILE_BYTES + 1, files: 1, fields: 16 } });
  const nextPart = async () => {
    try {
      return await parser.next();
    } catch (error) {
      throw parserFailure(error);
    }
  };
  for (let step = await nextPart(); !step.done; step = await nextPart()) {
    const part = step.value;
    if (part.type === "file") {
      const stream = completeFile(part.file, parser);
      yield { kind: "file", name: part.fieldname, filename: part.filename, stream };
    } else {
      yield { kind: "field", name: part.fieldname, value: String(part.value) };
    }
  }
  if (!body.complete) throw incompleteBody();
}
