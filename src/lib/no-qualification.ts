/** The honest answer when nothing listed matches what a worker does, word for word wherever it is given. */
export const NO_QUALIFICATION = "We don't list a qualification for that trade yet";

/** Where a visitor asks to be called back: the consultation form of the contact page. */
export const CALL_BACK_HREF = '/contact#consult-title';

/** What a quote's visitor was shown as their indicative result (codes, best first), for staff; none is valid. */
export const shownResult = (matches: readonly string[]) => matches.join(', ') || `None: told "${NO_QUALIFICATION}"`;
