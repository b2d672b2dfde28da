#!/usr/bin/env node
// Staff accounts: create a user, reset a password, delete a user, list users. Runs on Node 24 (TypeScript types are
// stripped by Node itself) against the local site's database or a deployed site's.
//
//   npm run users -- create <username> --first-name Jane --last-name Citizen [--role admin|editor] [--email jane@example.com]
//   npm run users -- reset-password <username>
//   npm run users -- set-email <username> <address|none>
//   npm run users -- unlock <username>
//   npm run users -- second-factor-off <username>
//   npm run users -- delete <username>
//   npm run users -- list
//
// Target: the local site's database (default: the one `npm start` serves, or its folder .netlify/db while the
// site is stopped), or a deployed site with --site <site id> and --database-url <its connection string>, and the
// NETLIFY_AUTH_TOKEN environment variable (a personal access token).
// Passwords are generated, printed once and stored only as scrypt hashes. To choose one yourself,
// pipe it in with --password-stdin (at least 12 characters).
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { openLocalData } from './lib/local-data.ts';
import {
  createUser,
  editUser,
  getUser,
  listUsers,
  setEmail,
  setPassword,
  UserExistsError,
  UnknownUserError,
} from '../src/server/users.ts';
import { unlockAccount } from '../src/server/throttle.ts';
import { deleteStaffFromCli, statusOf } from '../src/server/last-admin.ts';
import { RefusedInput } from '../src/server/http.ts';
import { generatePassword } from '../src/server/passwords.ts';
import { NewPasswordSchema, ROLES } from '../src/schemas/auth.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    role: { type: 'string', default: 'admin' },
    email: { type: 'string' },
    site: { type: 'string' },
    'database-url': { type: 'string' },
    'password-stdin': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
const [command, username, argument] = positionals;
const usage = `Usage:
  npm run users -- create <username> --first-name <name> --last-name <name> [--role ${ROLES.join('|')}] [--email <address>] [--password-stdin]
  npm run users -- reset-password <username> [--password-stdin]
  npm run users -- set-email <username> <address|none>   (where one-time sign-in links go when the account is locked)
  npm run users -- unlock <username>                     (clears the account's failed sign-ins and locks)
  npm run users -- second-factor-off <username>          (a lost phone and lost recovery codes: no code asked)
  npm run users -- delete <username>                     (never the last active administrator)
  npm run users -- list

Without options these manage the local site: the database \`npm start\` serves (or its folder .netlify/db while the
site is stopped).
To manage a deployed site instead, add both
  --site <site id>                      the site's files (set NETLIFY_AUTH_TOKEN to a personal access token)
  --database-url <connection string>    the site's database
The connection string comes from the Netlify UI, or from the Netlify CLI in the project folder linked to the site:
  npx netlify database status --branch <branch> --show-credentials
where <branch> is the Netlify branch whose database to manage (the production branch for the live site). Without
--branch, \`netlify database status\` and \`netlify database connect --json\` describe the local development
database instead. Quote the string on the command line: it holds the database password.`;

function fail(message: string): never {
  console.error(`Error: ${message}`);
  process.exit(1);
}

function choosePassword(): { password: string; generated: boolean } {
  if (!values['password-stdin']) return { password: generatePassword(), generated: true };
  const typed = readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  const checked = v.safeParse(NewPasswordSchema, typed);
  if (!checked.success) fail(checked.issues[0].message);
  return { password: checked.output, generated: false };
}

if (values.help || !command) {
  console.log(usage);
  process.exit(command ? 0 : 1);
}

let target: Awaited<ReturnType<typeof openLocalData>>;
try {
  target = await openLocalData({
    site: values.site,
    token: process.env.NETLIFY_AUTH_TOKEN,
    databaseUrl: values['database-url'],
  });
} catch (cause) {
  fail(cause instanceof Error ? cause.message : String(cause));
}
try {
  if (command === 'create') {
    if (!username) fail('give the username to create');
    const { password, generated } = choosePassword();
    const user = await createUser({
      username,
      firstName: values['first-name'] ?? '',
      lastName: values['last-name'] ?? '',
      role: values.role as (typeof ROLES)[number],
      ...(values.email ? { email: values.email } : {}),
      password,
    });
    console.log(`Created ${user.role} "${user.username}" (${user.firstName} ${user.lastName}) in ${target.label}.`);
    if (generated) console.log(`Password (shown once, store it in a password manager): ${password}`);
  } else if (command === 'reset-password') {
    if (!username) fail('give the username whose password to reset');
    const { password, generated } = choosePassword();
    await setPassword(username, password);
    console.log(
      `New password set for "${username.toLowerCase()}" in ${target.label}; every open session was signed out.`,
    );
    if (generated) console.log(`Password (shown once): ${password}`);
  } else if (command === 'set-email') {
    if (!username || !argument) fail('give the username and the e-mail address (or "none" to remove it)');
    const user = await setEmail(username, argument === 'none' ? null : argument);
    console.log(
      user.email
        ? `Sign-in links for "${user.username}" now go to ${user.email} (${target.label}).`
        : `Removed the e-mail address of "${user.username}" (${target.label}).`,
    );
  } else if (command === 'unlock') {
    if (!username) fail('give the username to unlock');
    if (!(await getUser(username))) fail(`There is no user "${username.trim().toLowerCase()}"`);
    const cleared = await unlockAccount(username);
    console.log(
      `Unlocked "${username.trim().toLowerCase()}" in ${target.label}: ${cleared} lock counter${cleared === 1 ? '' : 's'} cleared.`,
    );
  } else if (command === 'second-factor-off') {
    if (!username) fail('give the username');
    const user = await editUser(username, (current) =>
      current.totp || current.totpPending ? { totp: undefined, totpPending: undefined } : null,
    );
    console.log(
      `"${user.username}" signs in with the password alone now (${target.label}); set up a new app on the Account screen.`,
    );
  } else if (command === 'delete') {
    if (!username) fail('give the username to delete');
    const user = await deleteStaffFromCli(username);
    console.log(`Deleted ${user.role} "${user.username}" (${user.firstName} ${user.lastName}) from ${target.label}.`);
  } else if (command === 'ensure-local-account') {
    // Used by `npm start`: the first local run gets a staff account, its password printed once.
    if (values.site || values['database-url']) fail('ensure-local-account only works on the local site');
    const existing = await listUsers();
    if (existing.length > 0) {
      const names = existing.map((u) => u.username);
      const shown = names.includes('staff') ? ['staff'] : names.slice(0, 3);
      const more = names.length - shown.length;
      console.log(
        `Staff sign-in at /admin/login with your local account: ${shown.join(', ')}${more > 0 ? ` (and ${more} more)` : ''}.`,
      );
      console.log('Forgot the password? npm run users -- reset-password <username>');
    } else {
      const password = generatePassword();
      await createUser({ username: 'staff', firstName: 'Local', lastName: 'Staff', role: 'admin', password });
      console.log(
        'Created a local staff account for /admin/login (shown once; reset with npm run users -- reset-password staff):',
      );
      console.log(`  username: staff\n  password: ${password}`);
    }
  } else if (command === 'list') {
    const users = await listUsers();
    if (users.length === 0) console.log(`No staff accounts in ${target.label}.`);
    for (const user of users)
      console.log(
        `${user.username}\t${user.role}\t${statusOf(user)}\t${user.firstName} ${user.lastName}\t${user.email ?? '(no e-mail)'}\tcreated ${user.createdAt}`,
      );
  } else {
    fail(`unknown command "${command}"\n${usage}`);
  }
} catch (cause) {
  if (cause instanceof UserExistsError || cause instanceof UnknownUserError || cause instanceof RefusedInput)
    fail(cause.message);
  if (cause instanceof v.ValiError) fail(cause.issues[0].message);
  throw cause;
} finally {
  await target.close();
}
