export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, for malformed bodies. */
  rawBody?: string | Buffer;
  /** Sent as multipart/form-data (fetch writes the boundary). */
  form?: FormData;
  headers?: Record<string, string>;
}

/** A small HTTP client over fetch that keeps status, headers and the parsed JSON body. */
export class Http {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | FormData | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.form !== undefined) body = options.form;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }

  post<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('POST', path, options);
  }

  put<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('PUT', path, options);
  }

  patch<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('PATCH', path, options);
  }

  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
