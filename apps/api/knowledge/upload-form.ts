import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { PylonError, ErrorCode } from '@pylon/contracts';
import { sniffing, type FileDocumentFields, type IncomingFile, type KnowledgeFilesService, type ReceivedFile } from '@pylon/knowledge';
import { assertOwnOrg, type Principal } from '../auth/principal';
import { validJsonBody } from '../common/json-body';
import { UploadKnowledgeFileFields } from './dto/knowledge-files.dto';

/** A part of a `multipart/form-data` upload as read: a file, its bytes still to come, or a text field. */
type UploadPart = { file: IncomingFile } | { field: string; value: string };

interface UploadFormRules {
  /** The most files the form may carry, each in a part named `file`. */
  maxFiles: number;
  /** The most bytes one file may have. */
  maxFileBytes: number;
  /** The text fields it may have, each at most once. */
  fieldNames: readonly string[];
}

const MAX_FIELD_BYTES = 64 * 1024;

/**
 * A form of documents to be: its files received (at most `maxFiles`, each within KB_MAX_FILE_BYTES), each
 * as it arrives, and its fields validated as UploadKnowledgeFileFields (`org_id` the key's own). Whatever
 * goes wrong, nothing stays stored and the error says what.
 */
export async function readFileForm(
  request: FastifyRequest,
  principal: Principal,
  files: KnowledgeFilesService,
  options: { maxFiles: number; fieldNames: readonly string[] },
): Promise<{ files: ReceivedFile[]; fields: FileDocumentFields }> {
  const rules = { ...options, maxFileBytes: files.maxFileBytes };
  const received: ReceivedFile[] = [];
  const texts: Record<string, string> = {};
  try {
    for await (const part of readUploadForm(request, rules)) {
      if ('file' in part) received.push(await files.receive(part.file));
      else texts[part.field] = part.value;
    }
    if (received.length === 0) throw PylonError.invalidRequest('file is required: send it as a part named "file"');
    const fields = await validJsonBody(parseFormFields(texts), UploadKnowledgeFileFields);
    if (fields.org_id) assertOwnOrg(principal, fields.org_id);
    return { files: received, fields: { title: fields.title, metadata: fields.metadata, knowledgeBaseId: fields.knowledge_base_id } };
  } catch (error) {
    await Promise.all(received.map((file) => files.discard(file)));
    throw asPylonError(error, rules);
  }
}

/** The form's text fields as a body: `metadata` is JSON text (a 400 when it is not). */
function parseFormFields(fields: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...fields };
  if (fields.metadata !== undefined) {
    try {
      body.metadata = JSON.parse(fields.metadata);
    } catch {
      throw PylonError.invalidRequest('metadata: must be a JSON object, sent as text');
    }
  }
  return body;
}

/**
 * Reads the form part by part, handing on each file as a stream, sniffed as it goes by, to be read to its
 * end before the next part comes (never buffered). Refuses an unknown or repeated field, too many files, a
 * field too long; the multipart reader's own errors are for asPylonError.
 */
async function* readUploadForm(request: FastifyRequest, rules: UploadFormRules): AsyncGenerator<UploadPart> {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new PylonError(ErrorCode.UnsupportedMediaType, 'the body has a Content-Encoding, which this API does not decode: send it unencoded');
  }
  if (!request.isMultipart()) {
    throw new PylonError(ErrorCode.UnsupportedMediaType, 'the body must be multipart/form-data with the file in a part named "file"');
  }
  const parts = request.parts({
    limits: {
      fileSize: rules.maxFileBytes,
      files: rules.maxFiles,
      fields: rules.fieldNames.length,
      fieldSize: MAX_FIELD_BYTES,
      parts: rules.maxFiles + rules.fieldNames.length,
    },
  });
  const seen = new Set<string>();
  for await (const part of parts) yield read(part, seen, rules);
}

function read(part: Multipart, seen: Set<string>, rules: UploadFormRules): UploadPart {
  if (part.type === 'file') {
    if (part.fieldname !== 'file') {
      part.file.resume();
      throw PylonError.invalidRequest(`${part.fieldname}: unexpected file part; files go in parts named "file"`);
    }
    const { stream, sniffed } = sniffing(part.file);
    return { file: { stream, sniffed, fileName: part.filename || null, isTruncated: () => part.file.truncated } };
  }
  if (!rules.fieldNames.includes(part.fieldname)) {
    throw PylonError.invalidRequest(`${part.fieldname}: property ${part.fieldname} should not exist`);
  }
  if (seen.has(part.fieldname)) throw PylonError.invalidRequest(`${part.fieldname}: sent more than once`);
  seen.add(part.fieldname);
  if (part.valueTruncated) throw PylonError.invalidRequest(`${part.fieldname}: longer than ${MAX_FIELD_BYTES} bytes`);
  return { field: part.fieldname, value: typeof part.value === 'string' ? part.value : JSON.stringify(part.value) };
}

/** The multipart reader's own errors (FST_*), as the API's. */
function asPylonError(error: unknown, rules: UploadFormRules): unknown {
  if (error instanceof PylonError) return error;
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return PylonError.invalidRequest(`the form carries more than ${rules.maxFiles} file${rules.maxFiles === 1 ? '' : 's'}`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return PylonError.invalidRequest(`the form has more parts than it may: files, and the fields ${rules.fieldNames.join(', ')}`);
    case 'FST_PROTO_VIOLATION':
      return PylonError.invalidRequest('a part is named after a property of JavaScript objects');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return PylonError.invalidRequest('a field declared as JSON is not valid JSON');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new PylonError(ErrorCode.UnsupportedMediaType, 'the body must be multipart/form-data');
  }
  if (error instanceof Error && /multipart|boundary|Unexpected end|terminated early|premature/i.test(error.message)) {
    return PylonError.invalidRequest(`the multipart body is malformed: ${error.message}`);
  }
  return error;
}
