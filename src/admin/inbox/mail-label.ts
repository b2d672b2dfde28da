import type { MailDelivery } from '../../schemas/inquiry-record';

/** What the inbox says about an e-mail's delivery, and its tone. */
export function mailLabel(delivery: MailDelivery): { text: string; tone: 'ok' | 'wait' | 'bad' } {
  if (delivery.state === 'sent')
    return { text: delivery.via === 'outbox' ? 'Sent (local outbox)' : 'Sent', tone: 'ok' };
  if (delivery.state === 'failed') return { text: `Failed after ${delivery.attempts} attempts`, tone: 'bad' };
  return { text: delivery.attempts > 0 ? `Retrying (${delivery.attempts} tried)` : 'Sending', tone: 'wait' };
}
