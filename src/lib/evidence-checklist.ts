/**
 * One evidence checklist for several qualifications (the quote result, its e-mail): an item that several of
 * them name appears once; items are grouped by qualification only where the lists differ.
 */

export interface ChecklistGroup {
  /** The qualifications the group's items support, in the result's order. */
  codes: string[];
  /** "For any of them", or the qualification(s) the items are particular to. */
  heading: string;
  items: string[];
}

export function mergedChecklist(
  qualifications: readonly { code: string; title: string; evidence: readonly string[] }[],
): ChecklistGroup[] {
  const order = qualifications.map((q) => q.code);
  const codesOf = new Map<string, string[]>();
  for (const { code, evidence } of qualifications) {
    for (const item of new Set(evidence)) {
      const codes = codesOf.get(item);
      if (codes) codes.push(code);
      else codesOf.set(item, [code]);
    }
  }
  const titleOf = new Map(qualifications.map((q) => [q.code, q.title]));
  const groups = new Map<string, ChecklistGroup>();
  for (const [item, codes] of codesOf) {
    const key = codes.join(' ');
    const group = groups.get(key);
    if (group) group.items.push(item);
    else
      groups.set(key, {
        codes,
        heading:
          codes.length === order.length
            ? order.length === 1
              ? titleOf.get(codes[0]!)!
              : 'For any of them'
            : `Only for ${listOf(codes.map((code) => titleOf.get(code)!))}`,
        items: [item],
      });
  }
  // What every qualification needs first, then the groups in the order of their first qualification.
  return [...groups.values()].sort(
    (a, b) => b.codes.length - a.codes.length || order.indexOf(a.codes[0]!) - order.indexOf(b.codes[0]!),
  );
}

const listOf = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
