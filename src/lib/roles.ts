/**
 * Staff roles and what each may do: the one place they are defined. The server enforces them
 * (src/server/roles.ts, in every admin function); the admin UI uses the same map to hide what a role
 * cannot use. admin: everything (staff accounts and the activity log included). editor: blog posts and image uploads only; every
 * signed-in account manages its own name, password and sessions.
 */
export const PERMISSIONS = [
  'blogs',
  'uploads',
  'dashboard',
  'inquiries',
  'settings',
  'catalogue',
  'users',
  'activity',
  /** Editing the inbox's reply templates (every role with 'inquiries' may use them). */
  'templates',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Readonly<Record<string, readonly Permission[]>> = {
  admin: PERMISSIONS,
  editor: ['blogs', 'uploads'],
};

/** Unknown roles may do nothing. */
export function can(role: string | undefined | null, permission: Permission): boolean {
  return Boolean(role && Object.hasOwn(ROLE_PERMISSIONS, role) && ROLE_PERMISSIONS[role].includes(permission));
}

/** The admin UI's words for a page or card a role cannot use. */
export const NOT_FOR_ROLE = 'This is not available for your role.';

/** The server's answer (403) to a request the role may not make. */
export const forbiddenMessage = (role: string) =>
  `Your role (${role}) does not allow this. Ask an administrator if you need it.`;
