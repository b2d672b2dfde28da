import { Phone } from 'lucide-react';
import { telHref } from '../lib/social';
import { CALL_BACK_HREF, NO_QUALIFICATION } from '../lib/no-qualification';
import './NoQualification.css';

/** The free quote, carrying the words the visitor typed, so an empty answer is never a dead end. */
export const quoteHref = (search?: string) =>
  search?.trim() ? `/free-quote?${new URLSearchParams({ search: search.trim().slice(0, 100) })}` : '/free-quote';

interface Props {
  /** The business phone from the site settings. */
  phone?: string;
  /** What the visitor typed, carried to the free quote; without it (the quote itself) no quote link is shown. */
  search?: string;
  quoteLink?: boolean;
  compact?: boolean;
}

/**
 * "We don't list a qualification for that trade yet", with the phone number, a call-back request and
 * the free quote: never a neighbouring trade offered in its place.
 */
export function NoQualification({ phone, search, quoteLink = true, compact = false }: Props) {
  return (
    <div className={`no-qualification${compact ? ' no-qualification--compact' : ''}`} data-testid="no-qualification">
      <p className="no-qualification__lead">{NO_QUALIFICATION}.</p>
      <p>Tell us about your work and we'll tell you honestly what can be recognised.</p>
      <ul className="no-qualification__actions" role="list">
        {phone && (
          <li>
            <a className="btn btn--primary" href={telHref(phone)}>
              <Phone size={18} aria-hidden="true" />
              {/* The number as staff saved it, kept current by the settings refresh (link target included). */}
              <span>
                Call{' '}
                <span data-setting="contactInfo.phone" data-setting-link="tel">
                  {phone}
                </span>
              </span>
            </a>
          </li>
        )}
        <li>
          <a className="btn btn--outline" href={CALL_BACK_HREF}>
            Request a call back
          </a>
        </li>
        {quoteLink && (
          <li>
            <a className="btn btn--accent" href={quoteHref(search)}>
              Get a Free Quote
            </a>
          </li>
        )}
      </ul>
    </div>
  );
}
