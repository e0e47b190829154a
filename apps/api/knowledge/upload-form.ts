import type { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError, ErrorCode } from '@pylon/contracts';
import type { FileDocumentFields, KnowledgeFilesService, ReceivedFile } from '@pylon/knowledge';
import { assertOwnOrg, type Principal } from '../auth/principal';
import { validJsonBody } from '../common/json-body';
import { UploadKnowledgeFileFields } from './dto/knowledge-files.dto';

/** A `multipart/form-data` upload as read: its files, stored, and its text fields by name. */
export interface UploadForm {
  files: ReceivedFile[];
  fields: Record<string, string>;
}

export interface UploadFormRules {
  /** The most files the form may carry, each in a part named `file`. */
  maxFiles: number;
  /** The most bytes one file may have. */
  maxFileBytes: number;
  /** The text fields it may have, each at most once. */
  fieldNames: readonly string[];
  receive: (stream: Readable, fileName: string | null, isTruncated: () => boolean) => Promise<ReceivedFile>;
  discard: (file: ReceivedFile) => Promise<void>;
}

const MAX_FIELD_BYTES = 64 * 1024;

/**
 * A form of documents to be: its files stored (at most `maxFiles`, each within KB_MAX_FILE_BYTES) and its
 * fields validated as UploadKnowledgeFileFields (`org_id` the key's own). Refused, nothing stays stored.
 */
export async function readFileForm(
  request: FastifyRequest,
  principal: Principal,
  files: KnowledgeFilesService,
  options: { maxFiles: number; fieldNames: readonly string[] },
): Promise<{ files: ReceivedFile[]; fields: FileDocumentFields }> {
  const form = await readUploadForm(request, {
    ...options,
    maxFileBytes: files.maxFileBytes,
    receive: (stream, fileName, isTruncated) => files.receive(stream, fileName, isTruncated),
    discard: (file) => files.discard(file),
  });
  try {
    const fields = await validJsonBody(parseFormFields(form.fields), UploadKnowledgeFileFields);
    if (fields.org_id) assertOwnOrg(principal, fields.org_id);
    return { files: form.files, fields: { title: fields.title, metadata: fields.metadata, knowledgeBaseId: fields.knowledge_base_id } };
  } catch (error) {
    await Promise.all(form.files.map((file) => files.discard(file)));
    throw error;
  }
}

/** The form's text fields as a body: `metadata` is JSON text (a 400 when it is not). */
function parseFormFields(fields: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...fields };
  if (fields.metadata !== undefined) {
    try {
      body.metadata = JSON.parse(fields.metadata);
    } catch {
      throw ApiError.invalidRequest('metadata: must be a JSON object, sent as text');
    }
  }
  return body;
}

/**
 * Reads the form part by part, storing each file as it arrives (never buffering one). Whatever goes
 * wrong, the files already stored are removed and the error says what: an unknown or repeated field, too
 * many files (413), a field too long, a body that is not well-formed multipart.
 */
export async function readUploadForm(request: FastifyRequest, rules: UploadFormRules): Promise<UploadForm> {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new ApiError(ErrorCode.UnsupportedMediaType, 'the body has a Content-Encoding, which this API does not decode: send it unencoded');
  }
  if (!request.isMultipart()) {
    throw new ApiError(ErrorCode.UnsupportedMediaType, 'the body must be multipart/form-data with the file in a part named "file"');
  }
  const form: UploadForm = { files: [], fields: {} };
  try {
    const parts = request.parts({
      limits: {
        fileSize: rules.maxFileBytes,
        files: rules.maxFiles,
        fields: rules.fieldNames.length,
        fieldSize: MAX_FIELD_BYTES,
        parts: rules.maxFiles + rules.fieldNames.length,
      },
    });
    for await (const part of parts) await take(part, form, rules);
  } catch (error) {
    await Promise.all(form.files.map((file) => rules.discard(file)));
    throw asApiError(error, rules);
  }
  if (form.files.length === 0) throw ApiError.invalidRequest('file is required: send it as a part named "file"');
  return form;
}

async function take(part: Multipart, form: UploadForm, rules: UploadFormRules): Promise<void> {
  if (part.type === 'file') {
    if (part.fieldname !== 'file') {
      part.file.resume();
      throw ApiError.invalidRequest(`${part.fieldname}: unexpected file part; files go in parts named "file"`);
    }
    form.files.push(await rules.receive(part.file, part.filename || null, () => part.file.truncated));
    return;
  }
  if (!rules.fieldNames.includes(part.fieldname)) {
    throw ApiError.invalidRequest(`${part.fieldname}: property ${part.fieldname} should not exist`);
  }
  if (part.fieldname in form.fields) throw ApiError.invalidRequest(`${part.fieldname}: sent more than once`);
  if (part.valueTruncated) throw ApiError.invalidRequest(`${part.fieldname}: longer than ${MAX_FIELD_BYTES} bytes`);
  form.fields[part.fieldname] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
}

/** The multipart reader's own errors (FST_*), as the API's. */
function asApiError(error: unknown, rules: UploadFormRules): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return ApiError.invalidRequest(`the form carries more than ${rules.maxFiles} file${rules.maxFiles === 1 ? '' : 's'}`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return ApiError.invalidRequest(`the form has more parts than it may: files, and the fields ${rules.fieldNames.join(', ')}`);
    case 'FST_PROTO_VIOLATION':
      return ApiError.invalidRequest('a part is named after a property of JavaScript objects');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return ApiError.invalidRequest('a field declared as JSON is not valid JSON');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ApiError(ErrorCode.UnsupportedMediaType, 'the body must be multipart/form-data');
  }
  if (error instanceof Error && /multipart|boundary|Unexpected end|terminated early|premature/i.test(error.message)) {
    return ApiError.invalidRequest(`the multipart body is malformed: ${error.message}`);
  }
  return error;
}
