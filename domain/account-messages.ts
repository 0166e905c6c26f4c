/**
 * Account texts the spec does not word: the screens' extra paths
 * (a login code, sending a code again, the current password) and the shell's
 * words for a lapsed session. The spec's own texts stay in `messages.ts`.
 */
/** "Name", "Name and Phone", "Name, Email and Phone". */
function listOf(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export const accountMessages = {
  // Under a phone field (register, My Profile): the forms it takes (`phone.ts`).
  phoneHint: 'A 10-digit mobile number; +91 and spaces are fine.',
  // Register: why its button does nothing yet (the fields still empty, then those that break a rule).
  registerNeeds: (empty: readonly string[], wrong: readonly string[]) =>
    [
      empty.length ? `Still to fill in: ${listOf(empty)}.` : '',
      wrong.length ? `Still to correct: ${listOf(wrong)}.` : '',
    ]
      .filter(Boolean)
      .join(' '),
  // Current password on a password change (PUT /UpdateUserProfile; server and form).
  currentPasswordRequired: 'Please enter your current password to set a new one.',
  currentPasswordWrong: 'Your current password is not correct.',
  // A session the server refused (a 401 from any call) or one that lapsed on the device.
  sessionEnded: 'Your session has ended. Please log in again.',
  // Login with an emailed code instead of a password.
  loginCodeSent: (email: string) => `If ${email} has an account, we emailed it a login code.`,
  codeSentAgain: 'We sent you a new code. Please check your email.',
  // My Orders.
  ordersOffline: (when: string) => `You are offline. These are your orders as of ${when}.`,
  ordersFetchedAt: (when: string) => `Updated ${when}.`,
  ordersNotOnDevice: 'You are offline and this device has not fetched your orders yet.',
  // My Profile.
  profileOffline: 'You are offline. Your profile can be seen and changed once you are back online.',
} as const;
