import { quoteRows, type StoredQuoteLike } from '../../lib/quote-rows';
import { shownResult } from '../../lib/no-qualification';

/**
 * A stored quote's answers for the inbox, each under the label its schema gives it, so a field added to
 * the quote appears here without changes. Fields left blank are not listed. Then the indicative result the
 * visitor was shown, when the record has one.
 */
export function QuoteFields({ quote }: { quote: StoredQuoteLike & { matches?: readonly string[] } }) {
  const rows = quoteRows(quote).filter((row) => !row.empty);
  return (
    <dl className="inbox-item__quote">
      {rows.map((row) => (
        <div key={row.field} className="inbox-item__quote-row">
          <dt>{row.label}</dt>
          <dd>{row.text}</dd>
        </div>
      ))}
      {quote.matches && (
        <div className="inbox-item__quote-row">
          <dt>Indicative result shown</dt>
          <dd>{shownResult(quote.matches)}</dd>
        </div>
      )}
    </dl>
  );
}
