import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { InquiryRecord } from '../../schemas/inquiry-record';
import { api, ApiError } from '../api';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-AU', {
    timeZone: 'Australia/Sydney',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });

/** The marketing consent as it stands now: a withdrawal of the address (any inquiry, any way) wins over the tick. */
export function marketingState(item: Pick<InquiryRecord, 'consents' | 'marketingWithdrawn'>): string {
  if (item.marketingWithdrawn) return `Marketing: withdrawn (${day(item.marketingWithdrawn.at)})`;
  if (!item.consents) return 'Marketing: not asked';
  return `Marketing: ${item.consents.marketing ? 'Yes' : 'No'}`;
}

/**
 * The inquiry detail's marketing section: the current state and, until the address withdrew, a button that
 * records a withdrawal the person asked for (on the phone, by e-mail). It covers every inquiry from the address.
 */
export function MarketingConsent({ item, titleId }: { item: InquiryRecord; titleId: string }) {
  const queryClient = useQueryClient();
  const withdraw = useMutation({
    mutationFn: () =>
      api<InquiryRecord>(`/admin/inquiries/${encodeURIComponent(item.id)}`, {
        method: 'PATCH',
        body: { marketing: 'withdrawn' },
      }),
    onSuccess: () => {
      toast.success('Marketing consent withdrawn for this address');
      void queryClient.invalidateQueries({ queryKey: ['inquiries'] });
    },
    onError: (cause) =>
      toast.error(
        `Could not record the withdrawal: ${cause instanceof ApiError ? cause.message : 'Please try again.'}`,
      ),
  });
  const withdrawal = item.marketingWithdrawn;
  return (
    <section aria-labelledby={titleId}>
      <h3 id={titleId} className="inbox-detail__title">
        Marketing consent
      </h3>
      <p className="inbox-detail__meta" data-testid="marketing-state">
        {marketingState(item)}
        {withdrawal &&
          (withdrawal.via === 'staff'
            ? `, recorded by ${withdrawal.by?.name ?? 'staff'}`
            : ', from the link in our e-mail')}
      </p>
      {!withdrawal && (
        <button
          type="button"
          className="admin-btn admin-btn--ghost"
          disabled={withdraw.isPending}
          onClick={() => withdraw.mutate()}
        >
          {withdraw.isPending ? 'Recording...' : 'Record marketing withdrawal'}
        </button>
      )}
      <p className="admin-hint">
        A withdrawal covers every inquiry from {item.contact.email}; later forms from it are stored without marketing
        consent.
      </p>
    </section>
  );
}
