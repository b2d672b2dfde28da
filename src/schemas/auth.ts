import * as v from 'valibot';

/** Both fields required, otherwise 'Please fill in all fields'. */
export const FILL_ALL_FIELDS = 'Please fill in all fields';

const required = (max: number) =>
  v.pipe(v.string(FILL_ALL_FIELDS), v.nonEmpty(FILL_ALL_FIELDS), v.maxLength(max, `Must be at most ${max} characters`));

/** POST /api/auth/login body. The username is compared case-insensitively; the password is used as typed. */
export const LoginSchema = v.object({
  username: v.pipe(
    v.string(FILL_ALL_FIELDS),
    v.trim(),
    v.nonEmpty(FILL_ALL_FIELDS),
    v.maxLength(64, 'Usernames are at most 64 characters'),
  ),
  password: required(200),
  /** The authenticator app's code or a recovery code, for accounts with a second factor (asked for after the password). */
  code: v.optional(v.pipe(v.string('Enter the code'), v.trim(), v.maxLength(32, 'Codes are at most 32 characters'))),
});

export const ROLES = ['admin', 'editor'] as const;

/** A staff account name: what people type at the login box. */
export const UsernameSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^[a-z0-9][a-z0-9._-]{2,63}$/, 'Usernames are 3 to 64 letters, digits, dots, dashes or underscores'),
);

/** A new password: long enough to resist guessing, short enough to hash cheaply. */
export const NewPasswordSchema = v.pipe(
  v.string(),
  v.minLength(12, 'Passwords must be at least 12 characters'),
  v.maxLength(200, 'Passwords must be at most 200 characters'),
);

/** A staff account's e-mail address (optional): where one-time sign-in links go. */
export const StaffEmailSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.email('Enter a valid e-mail address'),
  v.maxLength(254),
);

/** A staff member's first or last name: one line of text, without control characters (the database keeps no NUL). */
const staffName = (label: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(`${label} is required`),
    v.maxLength(60),
    v.regex(/^[^\p{Cc}]*$/u, `${label} cannot contain control characters`),
  );

export const NewUserSchema = v.object({
  username: UsernameSchema,
  firstName: staffName('First name'),
  lastName: staffName('Last name'),
  role: v.picklist(ROLES, `Role must be one of: ${ROLES.join(', ')}`),
  email: v.optional(StaffEmailSchema),
  password: NewPasswordSchema,
});
export type NewUser = v.InferOutput<typeof NewUserSchema>;

/** What the browser keeps under the 'user' key and the dashboard shows. */
export const PublicUserSchema = v.object({
  username: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  role: v.string(),
});
export type PublicUser = v.InferOutput<typeof PublicUserSchema>;
