/**
 * The registration just sent, kept in memory only (never in storage: it holds
 * the password) so the OTP screen can ask for the code again by registering
 * the same details once more (each attempt gets its own code on the server).
 * After a reload it is gone, and the OTP screen offers /register instead.
 */
import type { RegisterInput } from '../../domain/accounts.js';

let last: RegisterInput | null = null;
export function rememberRegistration(input: RegisterInput): void {
  last = input;
}
export function lastRegistration(): RegisterInput | null {
  return last;
}
/** Once the code verified, the password has no reason to stay in memory. */
export function forgetRegistration(): void {
  last = null;
}
