import { type InvalidateOptions, type InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';

/**
 * The admin's query client. Data is fetched once, retried once, not refetched on window focus.
 *
 * Screens call `invalidateQueries` after a save so that a list is read again and shows what was saved. TanStack
 * Query joins a refetch to a read already under way when the list has no data yet (the first read of the
 * screen), so a save answered before that first read came back left the list without it, with no second read:
 * an invitation sent before the Users list had loaded never showed its new account. Here a read under way is
 * cancelled first, so the list is always read again after the save.
 */
export class AdminQueryClient extends QueryClient {
  constructor() {
    super({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
  }

  override async invalidateQueries(filters?: InvalidateQueryFilters, options?: InvalidateOptions): Promise<void> {
    await this.cancelQueries(filters);
    return super.invalidateQueries(filters, options);
  }
}
