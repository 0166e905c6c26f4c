/** The texts of account mails. Plain text: codes must be readable in any mail client. */
import type { Mail } from '../mail/mailer.js';
import type { CodePurpose } from './account.tables.js';

const PURPOSE_TEXT: Record<CodePurpose, { subject: string; lead: string }> = {
  register: { subject: 'Your registration code', lead: 'Use this code to verify your new account' },
  login: { subject: 'Your login code', lead: 'Use this code to log in' },
  reset: { subject: 'Your password reset code', lead: 'Use this code to set a new password' },
};

/**
 * A code mail. A registration code also names the last digits of the phone
 * given at registration: each registration attempt gets its own code, which
 * sets that attempt's password, and this line lets the mailbox's owner tell
 * the code of their own attempt from one started by someone else.
 */
export function codeMail(to: string, purpose: CodePurpose, code: string, minutes: number, phone = ''): Mail {
  const { subject, lead } = PURPOSE_TEXT[purpose];
  const whose =
    purpose === 'register' && phone.length >= 2
      ? `It is for the registration with the phone number ending in ${phone.slice(-2)}; ` +
        'if that is not yours, do not use it.\n'
      : '';
  return {
    to,
    subject: `${subject}: ${code}`,
    text:
      `${lead}:\n\n    ${code}\n\nIt works once and expires in ${minutes} minutes.\n${whose}` +
      'If you did not ask for it, ignore this mail: nothing changes without the code.\n',
  };
}

/** Sent instead of a code when someone registers with an email that already has an account. */
export function alreadyRegisteredMail(to: string): Mail {
  return {
    to,
    subject: 'Someone tried to register with your email',
    text:
      'Someone (perhaps you) tried to create an account with this email, which already has one.\n\n' +
      'If it was you, log in, or use "Forgot password" to set a new password.\n' +
      'If it was not you, ignore this mail: your account is unchanged.\n',
  };
}
