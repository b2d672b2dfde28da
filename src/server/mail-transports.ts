import { Resend } from 'resend';
import { dataStore } from './blobs';
import type { OutgoingMail } from './mail-messages';

/**
 * Mail providers: Resend when RESEND_API_KEY is set, otherwise the local `outbox` store and the log. Every
 * send carries an idempotency key, so a retried message is delivered once.
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

/** Local runs: each message becomes an entry of the `outbox` store, keyed by its idempotency key. */
export function outboxTransport(): MailTransport {
  return {
    name: 'outbox',
    async send(mail, idempotencyKey) {
      const { modified } = await dataStore('outbox').setJSON(
        idempotencyKey,
        { ...mail, idempotencyKey, storedAt: new Date().toISOString() },
        { onlyIfNew: true },
      );
      // The kind and id only: the address, subject and text are the visitor's (or a staff member's) own.
      console.log(
        `[outbox] ${modified ? 'stored' : 'already stored'} ${mail.kind} mail ${idempotencyKey} (RESEND_API_KEY is not set, so it was not sent)`,
      );
      return { id: `outbox:${idempotencyKey}` };
    },
  };
}

export function defaultTransport(): MailTransport {
  const apiKey = process.env.RESEND_API_KEY;
  return apiKey ? resendTransport(apiKey) : outboxTransport();
}
