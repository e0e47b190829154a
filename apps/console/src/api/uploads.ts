import { ApiFailure, reported } from './client';
import { storedApiKey } from './session';

/** How far an upload's bytes have gone: sent of total (total 0 until the browser knows it). */
export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * Sends a multipart form with the signed-in key through XMLHttpRequest, whose `upload.onprogress` reports the
 * bytes sent (fetch gives no upload progress). Answers the JSON body; a failure is an ApiFailure from its
 * status, its `{"error": code}` and its `Error-Detail` header, as `call` gives them.
 */
export function sendForm<T>(
  method: 'POST' | 'PUT',
  path: string,
  form: FormData,
  { onProgress, signal }: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, new URL(path, window.location.origin).toString());
    xhr.setRequestHeader('authorization', `Bearer ${storedApiKey() ?? ''}`);
    // The same file sent again with the same key (a retry of this very request) makes one document.
    xhr.setRequestHeader('idempotency-key', crypto.randomUUID());
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => onProgress?.({ sent: event.loaded, total: event.lengthComputable ? event.total : 0 });
    xhr.onload = () => {
      const body = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as T);
        return;
      }
      const code =
        typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
          ? (body as { error: string }).error
          : `http_${xhr.status}`;
      const retryAfter = Number(xhr.getResponseHeader('retry-after'));
      reject(
        reported(
          new ApiFailure(xhr.status, code, xhr.getResponseHeader('error-detail'), Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null),
        ),
      );
    };
    xhr.onerror = () => reject(new ApiFailure(0, 'network_error', 'the upload did not reach the server'));
    xhr.onabort = () => reject(new ApiFailure(0, 'aborted', 'the upload was stopped'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The form of one file: `file`, and the optional `title`, `metadata` (JSON text) and `knowledge_base_id`. */
export function fileForm(file: File, fields: { title?: string; metadata?: Record<string, unknown>; knowledgeBaseId?: string } = {}): FormData {
  const form = new FormData();
  if (fields.title) form.append('title', fields.title);
  if (fields.metadata) form.append('metadata', JSON.stringify(fields.metadata));
  if (fields.knowledgeBaseId) form.append('knowledge_base_id', fields.knowledgeBaseId);
  // The file last: the API reads the fields before the bytes.
  form.append('file', file, file.name);
  return form;
}
