/** The timeframe the content files are written with; staff may replace it in site settings. */
export const DEFAULT_TIMEFRAME = '4-8 weeks';

/** The timeframe the explainer video speaks, shows and captions (scripts/media/make-explainer.mjs). */
export const EXPLAINER_TIMEFRAME = '4-8 weeks';

/** The explainer states its own timeframe, so it is shown only while the claim is on with that same figure. */
export const explainerShown = (claim: { value: string; enabled: boolean }) =>
  claim.enabled && claim.value.trim() === EXPLAINER_TIMEFRAME;

export type ClaimSegment = { text: string } | { claim: 'completionTime'; before: string; after: string };

/**
 * Splits copy into plain text and the sentence that states the completion time, so that sentence can be
 * marked (and hidden or updated when staff change the claim). The sentence runs from the previous
 * sentence end to the next full stop; a following "This is an estimate..." sentence belongs to it.
 */
export function splitClaims(text: string, timeframe = DEFAULT_TIMEFRAME): ClaimSegment[] {
  const at = text.indexOf(timeframe);
  if (at < 0) return [{ text }];
  const boundary = Math.max(text.lastIndexOf('. ', at), text.lastIndexOf('! ', at), text.lastIndexOf('? ', at));
  const start = boundary < 0 ? 0 : boundary + 2;
  let end = text.indexOf('.', at + timeframe.length);
  end = end < 0 ? text.length : end + 1;
  const follow = /^\s*This is an estimate[^.]*\./.exec(text.slice(end));
  if (follow) end += follow[0].length;
  const segments: ClaimSegment[] = [];
  // The space before the sentence goes with it, so hiding it leaves no double space.
  const lead = start > 0 ? start - 1 : 0;
  if (lead > 0) segments.push({ text: text.slice(0, lead) });
  segments.push({
    claim: 'completionTime',
    before: text.slice(lead, at),
    after: text.slice(at + timeframe.length, end),
  });
  if (end < text.length) segments.push(...splitClaims(text.slice(end), timeframe));
  return segments;
}

/** The same copy as plain text (for meta descriptions and JSON-LD): the claim updated, or left out when off. */
export function claimPlainText(text: string, claim: { value: string; enabled: boolean }): string {
  return splitClaims(text)
    .map((segment) =>
      'text' in segment ? segment.text : claim.enabled ? `${segment.before}${claim.value}${segment.after}` : '',
    )
    .join('')
    .trim();
}
