import type { ReactNode, RefObject } from 'react';
import { CircleCheck, ClipboardList, Info, ShieldAlert } from 'lucide-react';
import type { ResultItem } from '../../lib/quote-result';

interface Props {
  headingRef: RefObject<HTMLHeadingElement | null>;
  name: string;
  /** The inquiry id the quote function answered. */
  reference: string;
  items: ResultItem[];
  notSure: boolean;
  /** Shown under the thank-you (who delivers the qualification). */
  children?: ReactNode;
}

/**
 * What a visitor sees once the quote request is stored: the thank-you, their reference, and an
 * indicative result (the qualifications that best match what they entered, the evidence that
 * usually supports each one and what RPL cannot give for it), then the next steps.
 */
export function QuoteResult({ headingRef, name, reference, items, notSure, children }: Props) {
  return (
    <div className="quote-done">
      <div className="quote-done__head">
        <CircleCheck size={56} aria-hidden="true" className="quote-done__icon" />
        <h2 ref={headingRef} tabIndex={-1}>
          Thank you{name ? `, ${name}` : ''}!
        </h2>
        <p>
          We've received your free quote request. One of our team will reply within 24 hours with your quote and what
          the assessment involves.
        </p>
        {reference && (
          <p className="quote-done__ref">
            Your reference number: <strong data-testid="quote-reference">{reference}</strong>
          </p>
        )}
        {children}
      </div>

      {items.length > 0 && (
        <section className="quote-result" aria-labelledby="quote-result-title">
          <h3 id="quote-result-title" className="quote-result__title">
            Your indicative result
          </h3>
          <p className="quote-result__caveat">
            <Info size={20} aria-hidden="true" />
            <span>
              <strong>An indication, not an assessment.</strong> We matched{' '}
              {notSure ? 'your experience and goals' : 'what you told us'} against our qualifications. Only a partner
              RTO's assessor can decide, from your evidence, whether you meet a qualification.
            </span>
          </p>
          <ol className="quote-result__list" role="list">
            {items.map((item) => (
              <li key={item.code} className="quote-match">
                <article aria-labelledby={`match-${item.code}`}>
                  <p className="quote-match__tag">
                    {item.selected
                      ? 'You chose this'
                      : notSure
                        ? 'Suggested from your experience'
                        : 'Also worth a look'}
                  </p>
                  <h4 id={`match-${item.code}`} className="quote-match__title">
                    <a href={`/courses/${item.code}`}>{item.title}</a>
                  </h4>
                  <p className="quote-match__meta">
                    {item.code} · {item.level} · {item.categoryName}
                  </p>
                  {item.workHours ? (
                    <p className="quote-match__tag">Needs current work in the role ({item.workHours} hours)</p>
                  ) : null}
                  <h5>
                    <ClipboardList size={18} aria-hidden="true" /> Evidence that usually supports it
                  </h5>
                  <ul className="quote-match__evidence">
                    {item.evidence.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                  {item.notIncluded && (
                    <div className="quote-match__limits">
                      <h5>
                        <ShieldAlert size={18} aria-hidden="true" /> What RPL cannot give you
                      </h5>
                      <p>{item.notIncluded}</p>
                    </div>
                  )}
                </article>
              </li>
            ))}
          </ol>
        </section>
      )}

      <section className="quote-next" aria-labelledby="quote-next-title">
        <h3 id="quote-next-title" className="quote-result__title">
          Next steps
        </h3>
        <ol>
          <li>Look out for our e-mail: it repeats your reference and this checklist.</li>
          <li>Start gathering the evidence listed above; copies or photos are fine for now.</li>
          <li>
            Our reply gives you the quote. If you go ahead, we help you put your evidence together for a partner RTO's
            assessor.
          </li>
        </ol>
        <a className="btn btn--primary" href="/">
          Back to Home
        </a>
      </section>
    </div>
  );
}
