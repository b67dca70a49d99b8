/** Success and error bodies of the wire format: `{data}` or `{code, message[, errors]}`. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function dataResponse(status: number, data: unknown): Response {
  return jsonResponse(status, { data });
}

export interface ErrorDetail {
  error: string;
  message: string;
  location?: string;
  invalidValue?: string;
  constraints?: Record<string, unknown>;
}

/** Raised by route code for any non-2xx answer; the handler renders it. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toResponse(): Response {
    const body: { code: number; message: string; errors?: ErrorDetail[] } = {
      code: this.code,
      message: this.message,
    };
    if (this.errors) body.errors = this.errors;
    return jsonResponse(this.status, body, this.headers);
  }
}

/** Code 2 with the platform's extended body. */
export function invalidRequest(message: string, errors: ErrorDetail[]): HttpError {
  return new HttpError(400, 2, message, errors);
}
