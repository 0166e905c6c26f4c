/**
 * Account forms and payloads (spec sections 3 and 5), one schema per form,
 * used by the server to validate and by the browser's forms to show the same
 * message before asking. Field names are the spec's, including its casing
 * (`Email`, `Otp` for the registration code check).
 *
 * Emails are trimmed and lower-cased here, so every comparison downstream is
 * case-insensitive. Passwords are never trimmed, and a password longer than
 * PASSWORD_MAX is refused before the server spends a memory-hard hash on it.
 */
import * as v from 'valibot';
import { accountMessages } from './account-messages.js';
import { messages } from './messages.js';
import { MobileOrNumberSchema } from './phone.js';
import { singleLine } from './single-line.js';

export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;
export const NAME_MAX = 100;
export const ADDRESS_MAX = 500;

/** The spec's one-time code: exactly six digits, sent as a string. */
export const OTP_PATTERN = /^\d{6}$/;

const LOWER = /[a-z]/;
const UPPER = /[A-Z]/;
const DIGIT = /\d/;
const SPECIAL = /[^A-Za-z0-9]/;

/** The spec's password rule (register and reset), whether the text meets it. */
export function isStrongPassword(password: string): boolean {
  return (
    password.length >= 8 &&
    password.length <= PASSWORD_MAX &&
    LOWER.test(password) &&
    UPPER.test(password) &&
    DIGIT.test(password) &&
    SPECIAL.test(password)
  );
}

export const EmailSchema = (message: string = messages.emailInvalid) =>
  v.pipe(
    v.string(message),
    v.trim(),
    v.toLowerCase(),
    v.nonEmpty(message),
    v.maxLength(EMAIL_MAX, message),
    v.email(message),
  );

/** Register's password: each part of the rule has its own message. */
export const PasswordSchema = v.pipe(
  v.string(messages.passwordRequired),
  v.nonEmpty(messages.passwordRequired),
  v.minLength(8, messages.passwordMin),
  v.maxLength(PASSWORD_MAX, messages.passwordTooLong),
  v.check(
    (p) => LOWER.test(p) && UPPER.test(p) && DIGIT.test(p) && SPECIAL.test(p),
    messages.passwordComplexity,
  ),
);

/** Reset's password: the spec words the whole rule as one message. */
const NewPasswordSchema = v.pipe(
  v.string(messages.resetPasswordRule),
  v.maxLength(PASSWORD_MAX, messages.passwordTooLong),
  v.check(isStrongPassword, messages.resetPasswordRule),
);

const NameSchema = v.pipe(
  v.string(messages.nameRequired),
  v.trim(),
  v.nonEmpty(messages.nameRequired),
  v.maxLength(NAME_MAX, messages.nameTooLong),
  singleLine('Name'),
);

/** An Indian mobile number as people type it ("+91 98765 01234"), kept as its 10 digits (`phone.ts`). */
const PhoneSchema = MobileOrNumberSchema(messages.phoneInvalid);

const OtpSchema = (message: string) =>
  v.pipe(
    v.union([v.string(), v.number()], message),
    v.transform((x) => String(x).trim()),
    v.regex(OTP_PATTERN, message),
  );

/** POST /CreateAccount: the register form. */
export const RegisterSchema = v.pipe(
  v.object(
    {
      name: NameSchema,
      email: EmailSchema(),
      password: PasswordSchema,
      confirmPassword: v.string(messages.passwordsDoNotMatch),
      phone: PhoneSchema,
    },
    messages.formInvalid,
  ),
  v.forward(
    v.partialCheck(
      [['password'], ['confirmPassword']],
      (input) => input.password === input.confirmPassword,
      messages.passwordsDoNotMatch,
    ),
    ['confirmPassword'],
  ),
);

/**
 * An email and a code, sent as `Email`/`Otp` (the spec's casing for the
 * registration check) or `email`/`otp`: the spec does not show the payload of
 * `/VryOtpLogin`, so a client written either way is served. The spec's casing
 * wins when both are present. The output (and the docs) use `Email`/`Otp` for
 * the registration check, as the spec names them, and `email`/`otp` for the
 * login code, as every other account payload does.
 */
const anyField = v.optional(v.unknown());
const eitherCase = (message: string) =>
  v.object({ Email: anyField, email: anyField, Otp: anyField, otp: anyField }, message);

/** POST /verifiedOtploginCustomer: the spec's `Email`, `Otp` (or lower case). */
export const VerifyRegistrationSchema = v.pipe(
  eitherCase(messages.otpInvalid),
  v.transform((b) => ({ Email: b.Email ?? b.email, Otp: b.Otp ?? b.otp })),
  v.object({ Email: EmailSchema(), Otp: OtpSchema(messages.otpInvalid) }, messages.otpInvalid),
);

/** POST /LoginCustomer. One message for any bad field, as the spec's login form shows. */
export const LoginSchema = v.object(
  {
    email: EmailSchema(messages.loginInvalid),
    password: v.pipe(
      v.string(messages.loginInvalid),
      v.nonEmpty(messages.loginInvalid),
      v.maxLength(PASSWORD_MAX, messages.loginInvalid),
    ),
  },
  messages.loginInvalid,
);

/** POST /onlyotp and POST /SendResetOtp (the forgot-password form): an email only. */
export const EmailOnlySchema = v.object({ email: EmailSchema() }, messages.emailInvalid);

/** POST /VryOtpLogin: log in with an emailed login code (`email`/`otp` or `Email`/`Otp`). */
export const OtpLoginSchema = v.pipe(
  eitherCase(messages.formInvalid),
  v.transform((b) => ({ email: b.Email ?? b.email, otp: b.Otp ?? b.otp })),
  v.object({ email: EmailSchema(), otp: OtpSchema(messages.otpInvalid) }, messages.formInvalid),
);

/** POST /Logout: the spec sends the stored email; the bearer token decides whose session ends. */
export const LogoutSchema = v.object(
  {
    email: v.optional(v.pipe(v.string(messages.emailInvalid), v.maxLength(EMAIL_MAX, messages.emailInvalid))),
  },
  messages.formInvalid,
);

/** POST /ResetPassword: the payload (the spec's fields). */
export const ResetPasswordSchema = v.object(
  { email: EmailSchema(), otp: OtpSchema(messages.resetOtpInvalid), newPassword: NewPasswordSchema },
  messages.formInvalid,
);

/** The reset form in the browser: the payload plus the confirmation field it checks. */
export const ResetPasswordFormSchema = v.pipe(
  v.object(
    {
      ...ResetPasswordSchema.entries,
      confirmPassword: v.string(messages.resetConfirmMismatch),
    },
    messages.formInvalid,
  ),
  v.forward(
    v.partialCheck(
      [['newPassword'], ['confirmPassword']],
      (input) => input.newPassword === input.confirmPassword,
      messages.resetConfirmMismatch,
    ),
    ['confirmPassword'],
  ),
);

/**
 * PUT /UpdateUserProfile. Every field is optional. An empty or absent
 * password keeps the current one (the old profile form sends what it shows);
 * a non-empty one must meet the password rule and comes with the current
 * password (`currentPassword`), which the server checks: a session alone
 * (a phone left unlocked, a stolen token) must not be enough to take the
 * account. The email cannot change here: a new address would need its own
 * verification, so the server refuses a different one.
 */
export const UpdateProfileSchema = v.pipe(
  v.object(
    {
      name: v.optional(NameSchema),
      email: v.optional(v.union([v.literal(''), EmailSchema()], messages.emailInvalid)),
      phone: v.optional(PhoneSchema),
      address: v.optional(
        v.pipe(
          v.string(messages.addressRequired),
          v.trim(),
          v.maxLength(ADDRESS_MAX, messages.addressTooLong),
        ),
      ),
      password: v.optional(v.nullable(v.union([v.literal(''), PasswordSchema], messages.passwordComplexity))),
      currentPassword: v.optional(
        v.nullable(
          v.pipe(
            v.string(accountMessages.currentPasswordRequired),
            v.maxLength(PASSWORD_MAX, accountMessages.currentPasswordWrong),
          ),
        ),
      ),
    },
    messages.formInvalid,
  ),
  v.forward(
    v.partialCheck(
      [['password'], ['currentPassword']],
      (input) => !input.password || !!input.currentPassword,
      accountMessages.currentPasswordRequired,
    ),
    ['currentPassword'],
  ),
);

/**
 * The My Profile form in the browser: what it sends, plus the confirmation of
 * a new password (the spec's register message when they differ).
 */
export const ProfileFormSchema = v.pipe(
  v.object(
    {
      name: NameSchema,
      phone: PhoneSchema,
      address: v.pipe(v.string(), v.trim(), v.maxLength(ADDRESS_MAX, messages.addressTooLong)),
      password: v.union([v.literal(''), PasswordSchema], messages.passwordComplexity),
      confirmPassword: v.string(),
      currentPassword: v.pipe(v.string(), v.maxLength(PASSWORD_MAX, accountMessages.currentPasswordWrong)),
    },
    messages.formInvalid,
  ),
  v.forward(
    v.partialCheck(
      [['password'], ['confirmPassword']],
      (input) => input.password === input.confirmPassword,
      messages.passwordsDoNotMatch,
    ),
    ['confirmPassword'],
  ),
  v.forward(
    v.partialCheck(
      [['password'], ['currentPassword']],
      (input) => !input.password || !!input.currentPassword,
      accountMessages.currentPasswordRequired,
    ),
    ['currentPassword'],
  ),
);

/** The login form's "log in with a code instead": the email, then the emailed code. */
export const OtpLoginFormSchema = v.object(
  { email: EmailSchema(), otp: OtpSchema(messages.otpInvalid) },
  messages.formInvalid,
);

/** The registration code form (/otp): six digits, the spec's message. */
export const OtpFormSchema = v.object({ otp: OtpSchema(messages.otpInvalid) }, messages.otpInvalid);

export type RegisterInput = v.InferInput<typeof RegisterSchema>;
export type LoginInput = v.InferInput<typeof LoginSchema>;
export type ResetPasswordForm = v.InferInput<typeof ResetPasswordFormSchema>;
export type ProfileForm = v.InferInput<typeof ProfileFormSchema>;

/** The answer of POST /LoginCustomer and POST /VryOtpLogin (spec section 3). */
// The answers' schemas (the API serializes through them; the types are inferred from them).

export const LoginDataSchema = v.object({
  token: v.string(),
  role: v.pipe(v.string(), v.description('"1" for an admin, "0" for a shopper')),
  /**
   * The user's id. The spec's client stores it as `userId`; the name is the
   * old API's. It identifies the account, not a code or a session.
   */
  veryOtpLoginID: v.pipe(v.number(), v.integer(), v.description("The user's id (the old API's name)")),
  email: v.string(),
  phone: v.string(),
});
export type LoginData = v.InferOutput<typeof LoginDataSchema>;

/** The answer of POST /CreateAccount: echoes the request, the same whether the email was known. */
export const RegisterDataSchema = v.object({
  email: v.string(),
  phone: v.string(),
});
export type RegisterData = v.InferOutput<typeof RegisterDataSchema>;

/** The user profile (spec section 3) without the password, which never leaves the server. */
export const UserProfileSchema = v.object({
  userID: v.pipe(v.number(), v.integer()),
  name: v.string(),
  email: v.string(),
  phone: v.string(),
  address: v.string(),
  role: v.string(),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
});
export type UserProfile = v.InferOutput<typeof UserProfileSchema>;
