import type { Config, Context } from '@netlify/functions';
import * as v from 'valibot';
import { error, json, methodNotAllowed } from '../../src/server/http';
import { parseJsonBody } from '../../src/server/validation';
import { toPublicUser } from '../../src/server/users';
import { AuthNotConfiguredError, deviceLabel, issueToken } from '../../src/server/tokens';
import { notConfigured } from '../../src/server/auth';
import { recordFailure, recordSuccess } from '../../src/server/throttle';
import { LINK_INVALID, peekSignInLink, redeemSignInLink } from '../../src/server/sign-in-links';
import { CODE_NEEDED, CODE_WRONG, hasSecondFactor, redeemSecondFactor } from '../../src/server/second-factor';
import { LoginSchema } from '../../src/schemas/auth';

const LinkSchema = v.object({
  token: v.pipe(v.string(LINK_INVALID), v.maxLength(100, LINK_INVALID)),
  code: LoginSchema.entries.code,
});

/**
 * POST /api/auth/link {token} -> {token, user, message}: redeems a one-time sign-in link (sent when the
 * owner's correct password met an account-wide lock) for a normal session. The address it is redeemed
 * from is trusted for the account from then on, as after any successful sign-in. An account with an
 * authenticator app needs its `code` too: the link is only used up once the code is right (401 with
 * `secondFactor: true` until then; a wrong code counts as a failed sign-in from this address).
 */
export default async (request: Request, context: Context) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const body = await parseJsonBody(LinkSchema, request, 1024);
  if (!body.ok) return body.response;
  try {
    let user: Awaited<ReturnType<typeof redeemSignInLink>>;
    try {
      const owner = await peekSignInLink(body.data.token);
      if (owner && hasSecondFactor(owner)) {
        if (!body.data.code) return json({ message: CODE_NEEDED, secondFactor: true }, { status: 401 });
        if (!(await redeemSecondFactor(owner.username, body.data.code))) {
          await recordFailure(owner.username, context.ip || 'unknown');
          return json({ message: CODE_WRONG, secondFactor: true }, { status: 401 });
        }
      }
      user = await redeemSignInLink(body.data.token);
    } catch (cause) {
      console.error(`Sign-in link could not be checked: ${String(cause)}`);
      return error(503, 'Sign-in is busy right now. Please try again in a few seconds.');
    }
    if (!user) return error(400, LINK_INVALID);
    const token = await issueToken(user, Date.now(), deviceLabel(request.headers.get('user-agent')));
    await recordSuccess(user.username, context.ip || 'unknown').catch((cause) =>
      console.error(`Sign-in throttle: could not record a success: ${String(cause)}`),
    );
    return json({ token, user: toPublicUser(user), message: 'Login successful! Redirecting...' });
  } catch (cause) {
    if (cause instanceof AuthNotConfiguredError) return notConfigured();
    throw cause;
  }
};

export const config: Config = {
  path: '/api/auth/link',
  method: 'POST',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
