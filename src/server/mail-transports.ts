import { Resend } from 'resend';
import { db, sql } from '../platform/database.ts';
import type { OutgoingMail } from './mail-messages';
import { mailProblems, tellMailProblemsOnce } from './mail-config.ts';

/**
 * Mail providers: Resend when RESEND_API_KEY is set; on this machine without it, the `outbox_messages` table and
 * the log; deployed without it, nothing (./mail-config.ts). Every send carries an idempotency key, so a retried
 * message is delivered once.
 */

export interface MailTransport {
  name: 'resend' | 'outbox';
  send(mail: OutgoingMail, idempotencyKey: string): Promise<{ id: string }>;
}

/* ---------- Transports ---------- */

/** Resend client shape used here (the real SDK, or a stand-in in tests). */
export interface ResendLike {
  emails: {
    send(
      payload: { from: string; to: string; replyTo?: string; subject: string; text: string; html: string },
      options?: { idempotencyKey?: string },
    ): Promise<{
      data: { id: string } | null;
      error: { message: string; name?: string; statusCode?: number | null } | null;
    }>;
  };
}

/**
 * A provider's error text with the message's addresses (and anything else shaped like an address) taken out:
 * it is logged and kept with the inquiry's delivery state, and may quote the recipient back.
 */
export function withoutAddresses(text: string, addresses: readonly (string | undefined)[]): string {
  let result = text;
  for (const address of addresses) {
    if (address) result = result.split(address).join('[address]');
  }
  return result.replace(/[^\s<>"'`(),;:]+@[^\s<>"'`(),;:]+/g, '[address]');
}

export function resendTransport(apiKey: string, client: ResendLike = new Resend(apiKey)): MailTransport {
  return {
    name: 'resend',
    async send(mail, idempotencyKey) {
      const { data, error } = await client.emails.send(
        {
          from: mail.from,
          to: mail.to,
          replyTo: mail.replyTo,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        },
        { idempotencyKey },
      );
      if (error || !data)
        throw new Error(
          withoutAddresses(
            `Resend: ${error?.name ?? 'error'} ${error?.statusCode ?? ''} ${error?.message ?? 'no answer'}`,
            [mail.to, mail.replyTo],
          ).replace(/\s+/g, ' '),
        );
      return { id: data.id };
    },
  };
}

/** Local runs: each message becomes a row of `outbox_messages`, keyed by its idempotency key. */
export function outboxTransport(): MailTransport {
  return {
    name: 'outbox',
    async send(mail, idempotencyKey) {
      const stored = await db().query(sql`
        INSERT INTO outbox_messages (idempotency_key, kind, sender, recipient, reply_to, subject, text, html)
        VALUES (${idempotencyKey}, ${mail.kind}, ${mail.from}, ${mail.to}, ${mail.replyTo ?? null}, ${mail.subject},
                ${mail.text}, ${mail.html})
        ON CONFLICT (idempotency_key) DO NOTHING RETURNING idempotency_key`);
      const modified = stored.length > 0;
      // The kind and id only: the address, subject and text are the visitor's (or a staff member's) own.
      console.log(
        `[outbox] ${modified ? 'stored' : 'already stored'} ${mail.kind} mail ${idempotencyKey} (RESEND_API_KEY is not set, so it was not sent)`,
      );
      return { id: `outbox:${idempotencyKey}` };
    },
  };
}

/**
 * Deployed without what mail needs: every send fails with the reason (the message stays pending for the retry,
 * then failed, both shown in the inbox), and the function's log says so once.
 */
function notSetUpTransport(problems: string[]): MailTransport {
  return {
    name: 'resend',
    async send() {
      tellMailProblemsOnce(problems);
      throw new Error(`E-mail is not set up: ${problems.join(' ')}`);
    },
  };
}

/** Resend where it is set up; on this machine without a key the outbox table; deployed without it, a refusal. */
export function defaultTransport(): MailTransport {
  const problems = mailProblems();
  if (problems.length) return notSetUpTransport(problems);
  const apiKey = process.env.RESEND_API_KEY;
  return apiKey ? resendTransport(apiKey) : outboxTransport();
}
