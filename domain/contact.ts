/**
 * The contact form: the spec's form had no behaviour; ours
 * sends the shopper's message to the shop by mail. Name, email and message are
 * required; the subject is optional. The same schema checks the form in the
 * browser (inline errors) and the body on the server.
 */
import * as v from 'valibot';
import { EmailSchema } from './accounts.js';
import { isTypedText } from './catalogue.js';
import { singleLine } from './single-line.js';

export const CONTACT_LIMITS = { name: 100, subject: 150, message: 5000 } as const;

export const contactMessages = {
  nameRequired: 'Please enter your name.',
  messageRequired: 'Please write your message.',
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
  notAllowed: (label: string) => `${label} contains characters that are not allowed.`,
  invalid: 'Please correct the highlighted fields.',
  sent: 'Thank you! Your message has reached us; we will answer by email.',
  offline:
    'Sending a message needs an internet connection. What you typed is kept here; send it when you are back online.',
  failed: 'Your message could not be sent. What you typed is kept here; please try again.',
  tooMany: 'Too many messages from here. Please wait a while, or email or call us.',
  noInbox: 'The shop cannot take messages here yet. Please call or visit us.',
} as const;

const typed = (label: string) => v.check((s: string) => isTypedText(s), contactMessages.notAllowed(label));
const optionalText = (label: string, max: number) =>
  v.optional(
    v.pipe(
      v.string(contactMessages.notAllowed(label)),
      v.trim(),
      v.maxLength(max, contactMessages.tooLong(label, max)),
      typed(label),
      singleLine(label),
    ),
    '',
  );
// A missing field reads as empty, so it gets the field's own message rather than valibot's generic one.
const requiredText = (label: string, max: number, required: string) =>
  v.optional(
    v.pipe(
      v.string(required),
      v.trim(),
      v.nonEmpty(required),
      v.maxLength(max, contactMessages.tooLong(label, max)),
      typed(label),
    ),
    '',
  );

export const ContactSchema = v.object({
  name: v.pipe(requiredText('Name', CONTACT_LIMITS.name, contactMessages.nameRequired), singleLine('Name')),
  email: v.optional(EmailSchema(), ''),
  subject: optionalText('Subject', CONTACT_LIMITS.subject),
  message: requiredText('Message', CONTACT_LIMITS.message, contactMessages.messageRequired),
});
export type ContactInput = v.InferOutput<typeof ContactSchema>;
export type ContactField = keyof ContactInput;

/** Every field's first problem, for the form's inline errors (empty when the form can be sent). */
export function contactErrors(input: Record<ContactField, string>): Partial<Record<ContactField, string>> {
  const result = v.safeParse(ContactSchema, input, { abortPipeEarly: true });
  if (result.success) return {};
  const errors: Partial<Record<ContactField, string>> = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key as ContactField | undefined;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

/** The mail the shop receives: plain text, the shopper's words as typed, their address to answer. */
export function contactMail(input: ContactInput): { subject: string; text: string } {
  const about = input.subject || 'Message from the contact form';
  return {
    subject: `Contact form: ${about}`,
    text: [`From: ${input.name} <${input.email}>`, `Subject: ${about}`, '', input.message].join('\n'),
  };
}
