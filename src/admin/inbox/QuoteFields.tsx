import type { QuoteDetails } from '../../schemas/inquiry-record';

/** A stored quote request's answers, as a definition list (the inbox's detail view). */
export default function QuoteFields({ quote }: { quote: QuoteDetails }) {
  const rows: [string, string][] = [
    ['Courses', quote.courses.map((course) => `${course.code} ${course.title}`).join('; ') || 'None chosen'],
    ['Categories', quote.categories.map((category) => category.name).join(', ')],
    ['State', quote.state],
    ['Preferred contact time', quote.preferredContact || 'Not given'],
  ];
  if (quote.notSure) rows.push(['Not sure', 'Asked for suggestions from their experience']);
  if (quote.matches?.length) rows.push(['Indicative result shown', quote.matches.join(', ')]);
  if (quote.experience) rows.push(['Experience', quote.experience]);
  if (quote.goals) rows.push(['Goals', quote.goals]);
  if (quote.additionalInfo) rows.push(['Additional information', quote.additionalInfo]);
  return (
    <dl className="inbox-item__quote">
      {rows.map(([label, value]) => (
        <div key={label} className="inbox-item__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
