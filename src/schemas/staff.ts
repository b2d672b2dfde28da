import * as v from 'valibot';
import { NewPasswordSchema, NewUserSchema, ROLES, StaffEmailSchema } from './auth.ts';

/** POST /api/admin/users: invite a person by e-mail; they choose their own password through the link. */
export const InviteSchema = v.object({
  email: v.pipe(v.string('Enter a valid e-mail address'), v.trim(), v.nonEmpty('E-mail is required'), StaffEmailSchema),
  firstName: NewUserSchema.entries.firstName,
  lastName: NewUserSchema.entries.lastName,
  role: v.picklist(ROLES, `Role must be one of: ${ROLES.join(', ')}`),
});
export type Invite = v.InferOutput<typeof InviteSchema>;

/** PATCH /api/admin/users/:username: a new role, or (de)activation; at least one of them. */
export const UserChangeSchema = v.pipe(
  v.object({
    role: v.optional(v.picklist(ROLES, `Role must be one of: ${ROLES.join(', ')}`)),
    active: v.optional(v.boolean('Active must be true or false')),
  }),
  v.check((change) => change.role !== undefined || change.active !== undefined, 'Send a role or active.'),
);

/** PATCH /api/admin/me: the signed-in person's own display name. */
export const OwnNameSchema = v.object({
  firstName: NewUserSchema.entries.firstName,
  lastName: NewUserSchema.entries.lastName,
});

/** POST /api/admin/me/password: the current password (checked) and the new one (same rules as the CLI). */
export const OwnPasswordSchema = v.object({
  current: v.pipe(v.string('Enter your current password'), v.nonEmpty('Enter your current password'), v.maxLength(200)),
  next: v.pipe(v.string('Enter a new password'), NewPasswordSchema),
});

/** POST /api/admin/me/second-factor/confirm: the first code the authenticator app shows. */
export const SecondFactorCodeSchema = v.object({
  code: v.pipe(v.string('Enter the 6-digit code'), v.trim(), v.regex(/^\d{6}$/, 'Enter the 6-digit code')),
});

/** POST /api/admin/me/second-factor and .../off: the person's password, checked before the factor changes. */
export const SecondFactorPasswordSchema = v.object({
  password: OwnPasswordSchema.entries.current,
});

/** The invitation token as it appears in the link: 32 random bytes, base64url. */
export const INVITE_TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
export const INVITE_INVALID =
  'This invitation link is invalid, used or expired. Ask an administrator to invite you again.';

/** POST /api/auth/accept-invite: the token from the invitation and the password the person chose. */
export const AcceptInviteSchema = v.object({
  token: v.pipe(v.string(INVITE_INVALID), v.maxLength(100, INVITE_INVALID)),
  password: v.pipe(v.string('Enter a password'), NewPasswordSchema),
});

/** What the Users screen lists: never a password hash, a token or a session id. */
export interface StaffListItem {
  username: string;
  firstName: string;
  lastName: string;
  email: string | null;
  role: string;
  status: 'active' | 'invited' | 'deactivated';
  lastSignInAt: string | null;
  createdAt: string;
}

/** One of the signed-in person's own sessions, as the Account screen lists it. */
export interface OwnSession {
  id: string;
  device: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

/**
 * POST /api/auth/setup: the first owner of a new site, made once with the setup secret the owner put in the site's
 * environment (SETUP_SECRET); refused for good once an administrator exists.
 */
export const FirstOwnerSchema = v.object({
  secret: v.pipe(v.string('Enter the setup secret'), v.nonEmpty('Enter the setup secret'), v.maxLength(200)),
  username: NewUserSchema.entries.username,
  firstName: NewUserSchema.entries.firstName,
  lastName: NewUserSchema.entries.lastName,
  email: v.pipe(v.string('Enter a valid e-mail address'), v.trim(), v.nonEmpty('E-mail is required'), StaffEmailSchema),
  password: v.pipe(v.string('Enter a password'), NewPasswordSchema),
});
export type FirstOwner = v.InferOutput<typeof FirstOwnerSchema>;
export const SETUP_NOT_ENABLED =
  'Setup is not enabled on this site. To create the first owner, set SETUP_SECRET (at least 32 characters) in the Netlify environment variables and deploy again.';
export const SETUP_DONE = 'This site already has an owner. Sign in, or ask an administrator to invite you.';
export const SETUP_WRONG_SECRET = 'The setup secret is not right.';
