/**
 * The response envelope every endpoint of the spec answers (section 7):
 * `{ isSuccess, data, sys_message }`. Failures keep the same shape with
 * `isSuccess: false`, so an old client that only reads `isSuccess` and
 * `sys_message` works against every answer, good or bad.
 */
export interface Envelope<T> {
  isSuccess: boolean;
  data: T | null;
  sys_message: string;
}

export function ok<T>(data: T, sys_message = 'Success'): Envelope<T> {
  return { isSuccess: true, data, sys_message };
}

export function fail(sys_message: string, data: unknown = null): Envelope<unknown> {
  return { isSuccess: false, data, sys_message };
}
