import type { DashboardStats } from '../../server/stats';

/** "Mon 30 Nov" for a follow-up's Sydney day. */
const day = (date: string) =>
  new Intl.DateTimeFormat('en-AU', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

type Lists = NonNullable<DashboardStats['followUps']>;

/** The dashboard's follow-ups: those due today and those overdue (Sydney days), each linking to its inquiry. */
export function FollowUpsDue({ followUps }: { followUps: Lists | null }) {
  return (
    <section aria-labelledby="follow-ups-title" className="admin-section admin-card" data-testid="follow-ups">
      <h2 id="follow-ups-title" className="admin-subtitle">
        Follow-ups
      </h2>
      <div className="follow-ups">
        <FollowUpList
          title="Follow-ups due today"
          testId="follow-ups-due"
          list={followUps?.due}
          empty="No follow-ups are due today."
          filter="due"
        />
        <FollowUpList
          title="Overdue"
          testId="follow-ups-overdue"
          list={followUps?.overdue}
          empty="Nothing is overdue."
          filter="overdue"
          showDay
        />
      </div>
    </section>
  );
}

function FollowUpList({
  title,
  testId,
  list,
  empty,
  filter,
  showDay,
}: {
  title: string;
  testId: string;
  list: Lists['due'] | undefined;
  empty: string;
  filter: 'due' | 'overdue';
  showDay?: boolean;
}) {
  const id = `${testId}-title`;
  return (
    <section aria-labelledby={id} data-testid={testId}>
      <h3 id={id} className="follow-ups__title">
        {title} {list ? <span className="segmented__count">{list.total}</span> : null}
      </h3>
      {!list?.items.length ? (
        <p>{empty}</p>
      ) : (
        <>
          <ul className="callback-list" role="list">
            {list.items.map((item) => (
              <li key={item.id}>
                {showDay && <strong>{day(item.date)}</strong>} <span>{item.name}</span>{' '}
                <a href={`/admin/inquiries?q=${encodeURIComponent(item.reference)}`}>{item.reference}</a>
              </li>
            ))}
          </ul>
          {list.total > list.items.length && (
            <p>
              <a href={`/admin/inquiries?filter=${filter}`}>All {list.total} in the inbox</a>
            </p>
          )}
        </>
      )}
    </section>
  );
}
