/**
 * An error that carries its HTTP status and a message a person can act on.
 * The error handler (`plugins/errors.ts`) turns it into the spec's envelope;
 * anything that is not an HttpError and not a known 4xx is masked as a 500.
 */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly data: unknown = null,
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, data?: unknown) => new HttpError(400, message, data);
export const unauthorized = (message = 'Please log in again.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do that.') => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string, data?: unknown) => new HttpError(409, message, data);
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, null, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
