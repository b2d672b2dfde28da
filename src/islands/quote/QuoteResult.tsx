import { useEffect, type ReactNode, type RefObject } from 'react';
import { CircleCheck, ClipboardList, Info, Phone, Printer, ShieldAlert, Upload, Wallet } from 'lucide-react';
import type { ResultItem } from '../../catalogue/quote-result';
import { mergedChecklist } from '../../lib/evidence-checklist';
import { telHref } from '../../lib/social';
import { NoQualification } from '../../components/NoQualification';
import { CallbackRequest } from './CallbackRequest';

interface Props {
  headingRef: RefObject<HTMLHeadingElement | null>;
  name: string;
  /** The readable reference (RPL-…) the quote function answered. */
  reference: string;
  items: ResultItem[];
  notSure: boolean;
  /** The business phone from the site settings ("Call us now"; offered when nothing listed matches). */
  phone?: string;
  /** The business hours from the site settings: the call-back's days and times. */
  businessHours?: string;
  /** The private link to the applicant page, offered here once (also in the acknowledgement e-mail). */
  applicantLink?: string;
  /** Shown under the thank-you (who delivers the qualification). */
  children?: ReactNode;
}

/** The token of an applicant link (`/apply#token=…`), for the call-back request. */
const tokenOf = (link: string | undefined) => (link ? /[#&]token=([A-Za-z0-9_-]+)/.exec(link)?.[1] : undefined);

/**
 * What a visitor sees once the quote request is stored: a thank-you with the reference at the top, the ways
 * on (upload the evidence, call us, ask for a call-back), the indicative result with its fees, and one
 * printable evidence checklist for all of it.
 */
export function QuoteResult(props: Props) {
  const { headingRef, name, reference, items, notSure, phone, businessHours, applicantLink, children } = props;
  // Zero suggestions is a valid answer: a trade the catalogue lacks is told so, never offered a neighbour.
  const honestEmpty = notSure && !items.length;
  const token = tokenOf(applicantLink);
  const groups = mergedChecklist(items);

  useEffect(() => {
    // The page now reads as a thank-you: its form introduction and side notes give way to the result.
    document.body.dataset.quoteDone = '';
    if (reference) document.title = `Thank you – reference ${reference}`;
    return () => {
      delete document.body.dataset.quoteDone;
    };
  }, [reference]);

  return (
    <div className="quote-done">
      <div className="quote-done__head">
        <CircleCheck size={56} aria-hidden="true" className="quote-done__icon" />
        <h2 ref={headingRef} tabIndex={-1}>
          Thank you{name ? `, ${name}` : ''}!
        </h2>
        {reference && (
          <p className="quote-done__ref">
            <span>Your reference</span>
            <strong data-testid="quote-reference">{reference}</strong>
            <span className="quote-done__ref-hint">Quote it when you call or write to us.</span>
          </p>
        )}
        <p>
          We've received your free quote request. One of our team will reply within 24 hours with your quote and what
          the assessment involves.
        </p>
        {children}
      </div>

      <section className="quote-ways" aria-label="What you can do now">
        {applicantLink && (
          <a className="btn btn--accent" href={applicantLink} data-testid="upload-evidence">
            <Upload size={20} aria-hidden="true" /> Upload your evidence
          </a>
        )}
        {/* With nothing listed for the trade, the honest answer below carries the call button. */}
        {phone && !honestEmpty && (
          <a className="btn btn--primary" href={telHref(phone)}>
            <Phone size={20} aria-hidden="true" /> Call us now: {phone}
          </a>
        )}
        {applicantLink && (
          <p className="quote-ways__note">
            The upload link is also in our e-mail to you. It opens your private applicant page, where you can send
            photos and documents for each item below and see where your application is.
          </p>
        )}
      </section>

      {token && businessHours && <CallbackRequest token={token} businessHours={businessHours} />}

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
                  {item.fee && (
                    <p className="quote-match__fee">
                      <Wallet size={18} aria-hidden="true" /> <span>{item.fee}</span>
                    </p>
                  )}
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

      {honestEmpty && (
        <section className="quote-result" aria-labelledby="quote-none-title">
          <h3 id="quote-none-title" className="quote-result__title">
            Your indicative result
          </h3>
          <NoQualification phone={phone} quoteLink={false} />
        </section>
      )}

      {groups.length > 0 && (
        <section className="quote-checklist" aria-labelledby="quote-checklist-title" data-testid="evidence-checklist">
          <div className="quote-checklist__head">
            <h3 id="quote-checklist-title" className="quote-result__title">
              <ClipboardList size={22} aria-hidden="true" /> Your evidence checklist
            </h3>
            <button type="button" className="btn btn--outline quote-checklist__print" onClick={() => window.print()}>
              <Printer size={18} aria-hidden="true" /> Print
            </button>
          </div>
          <p className="quote-checklist__intro">
            What usually supports an application. Copies or photos are fine for now; you do not need everything.
          </p>
          {groups.map((group) => (
            <div key={group.codes.join(' ')} className="quote-checklist__group">
              {groups.length > 1 || items.length > 1 ? <h4>{group.heading}</h4> : null}
              <ul>
                {group.items.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      )}

      <section className="quote-next" aria-labelledby="quote-next-title">
        <h3 id="quote-next-title" className="quote-result__title">
          What happens next
        </h3>
        <ol>
          <li>
            Look out for our e-mail: it repeats your reference
            {groups.length ? ', the upload link and this checklist' : ''}.
          </li>
          <li>
            {groups.length
              ? 'Start gathering the evidence on the checklist, and send it from your applicant page whenever you are ready.'
              : 'Keep what shows your work at hand (references, payslips, photos of your work); copies are fine for now.'}
          </li>
          <li>
            Our reply gives you the quote. If you go ahead, we help you put your evidence together for a partner RTO's
            assessor.
          </li>
        </ol>
      </section>
    </div>
  );
}
