import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  BookOpen,
  CircleAlert,
  CircleCheck,
  Eye,
  Inbox,
  FileText,
  FolderTree,
  GraduationCap,
  Layers,
  Newspaper,
  Settings,
} from 'lucide-react';
import type { DashboardStats } from '../server/stats';
import { api, ApiError } from './api';
import { can, NOT_FOR_ROLE, type Permission } from '../lib/roles';
import type { LaunchReadiness } from '../server/launch-readiness';
import { useAuth } from './auth';
import { formatCount, formatGrowth } from './format';
import { Loading } from './Loading';
import { telHref } from '../lib/social';
import { FollowUpsDue } from './inbox/FollowUpsDue';

const ZERO: Pick<DashboardStats, 'overview' | 'trends' | 'inbox'> = {
  overview: { totalCourses: 0, totalCategories: 0, totalBlogs: 0, publishedBlogs: 0, totalViews: 0, monthlyGrowth: 0 },
  trends: { coursesGrowth: 0, blogsGrowth: 0, categoriesGrowth: 0, viewsGrowth: 0 },
  inbox: null,
};

const navCards: readonly {
  href: string;
  title: string;
  text: string;
  Icon: typeof Settings;
  accent: string;
  permission: Permission;
}[] = [
  {
    href: '/admin/courses',
    title: 'Manage Courses',
    text: 'Browse the qualifications listed on the site.',
    Icon: GraduationCap,
    accent: 'green',
    permission: 'catalogue',
  },
  {
    href: '/admin/categories',
    title: 'Manage Categories',
    text: 'See the industry sectors and their courses.',
    Icon: FolderTree,
    accent: 'blue',
    permission: 'catalogue',
  },
  {
    href: '/admin/blogs',
    title: 'Manage Blogs',
    text: 'Write, publish and update blog posts.',
    Icon: Newspaper,
    accent: 'orange',
    permission: 'blogs',
  },
  {
    href: '/admin/inquiries',
    title: 'Inquiries',
    text: 'Contact, consultation and free-quote requests, with their e-mail status.',
    Icon: Inbox,
    accent: 'teal',
    permission: 'inquiries',
  },
  {
    href: '/admin/settings',
    title: 'Site Settings',
    text: 'Contact information, social links, e-mail, phone and business hours.',
    Icon: Settings,
    accent: 'purple',
    permission: 'settings',
  },
];

/** The data client retries a failed request once (not a refused session or role). */
const retryOnce = (failures: number, cause: unknown) =>
  failures < 1 && !(cause instanceof ApiError && (cause.status === 401 || cause.status === 403));

export default function DashboardPage() {
  const { user } = useAuth();
  const showStats = can(user?.role, 'dashboard');
  // Retried once; a load that still fails is only logged and shows zeros.
  const { data, isPending, isError, error } = useQuery({
    queryKey: ['dashboard-stats'],
    queryFn: () => api<DashboardStats>('/admin/dashboard-stats'),
    retry: retryOnce,
    enabled: showStats,
  });
  useEffect(() => {
    if (isError) console.error('Dashboard stats could not be loaded', error);
  }, [isError, error]);

  if (showStats && isPending) return <Loading text="Loading dashboard..." />;
  const { overview, trends, inbox } = data ?? ZERO;
  const callbacks = data?.callbacksToday ?? null;
  const showInbox = can(user?.role, 'inquiries');
  const cards = [
    {
      label: 'Total Courses',
      value: overview.totalCourses,
      note: 'RPL qualifications available',
      growth: trends.coursesGrowth,
      Icon: BookOpen,
      accent: 'green',
    },
    {
      label: 'Blog Posts',
      value: overview.publishedBlogs,
      note: 'Published articles',
      growth: trends.blogsGrowth,
      Icon: FileText,
      accent: 'blue',
    },
    {
      label: 'Categories',
      value: overview.totalCategories,
      note: 'Industry sectors',
      growth: trends.categoriesGrowth,
      Icon: Layers,
      accent: 'orange',
    },
    {
      label: 'Total Views',
      value: overview.totalViews,
      note: 'This month',
      growth: trends.viewsGrowth,
      Icon: Eye,
      accent: 'purple',
    },
  ] as const;

  return (
    <>
      <p className="admin-welcome">Welcome back, {user?.firstName}!</p>
      {showStats ? (
        <section aria-label="Statistics" className={`stat-grid ${showInbox ? 'stat-grid--five' : ''}`}>
          {showInbox && <NewInquiriesCard inbox={inbox} failed={isError} />}
          {cards.map(({ label, value, note, growth, Icon, accent }) => {
            const g = formatGrowth(growth);
            return (
              <article
                key={label}
                className={`stat-card accent-${accent}`}
                data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}
              >
                <div className="stat-card__top">
                  <h2 className="stat-card__label">{label}</h2>
                  <Icon size={22} aria-hidden="true" className="stat-card__icon" />
                </div>
                <p className="stat-card__value" data-value={value}>
                  {formatCount(value)}
                </p>
                <p className="stat-card__note">{note}</p>
                <p className={`stat-card__growth is-${g.tone}`}>
                  <span className="visually-hidden">Growth: </span>
                  {g.text}
                  <span className="stat-card__since"> vs last month</span>
                </p>
              </article>
            );
          })}
        </section>
      ) : (
        <p className="admin-note" data-testid="stats-not-for-role">
          Site statistics: {NOT_FOR_ROLE}
        </p>
      )}
      {showInbox && data && <CallbacksToday callbacks={callbacks} />}
      {showInbox && data && <FollowUpsDue followUps={data.followUps} />}
      {can(user?.role, 'settings') && <ReadyToLaunch />}
      <section aria-labelledby="manage-title" className="admin-section">
        <h2 id="manage-title" className="admin-subtitle">
          Manage the site
        </h2>
        <ul role="list" className="nav-grid">
          {navCards
            .filter((card) => can(user?.role, card.permission))
            .map(({ href, title, text, Icon, accent }) => (
              <li key={href}>
                <a className={`nav-card accent-${accent}`} href={href}>
                  <Icon size={28} aria-hidden="true" />
                  <span className="nav-card__title">{title}</span>
                  <span className="nav-card__text">{text}</span>
                </a>
              </li>
            ))}
        </ul>
      </section>
    </>
  );
}

/** What arrived since this staff member last opened the inbox, with the way there. */
function NewInquiriesCard({ inbox, failed }: { inbox: DashboardStats['inbox']; failed: boolean }) {
  const since = inbox?.lastVisitAt
    ? `Since your last visit, ${new Date(inbox.lastVisitAt).toLocaleString('en-AU', { timeZone: 'Australia/Sydney', dateStyle: 'medium', timeStyle: 'short' })}`
    : 'You have not opened the inbox yet';
  return (
    <article
      className="stat-card accent-teal stat-card--inbox"
      data-testid="stat-new-inquiries"
      aria-labelledby="new-inquiries-title"
    >
      <div className="stat-card__top">
        <h2 id="new-inquiries-title" className="stat-card__label">
          Arrived since your last visit
        </h2>
        <Inbox size={22} aria-hidden="true" className="stat-card__icon" />
      </div>
      {failed || !inbox ? (
        <>
          <p className="stat-card__value" aria-hidden="true">
            –
          </p>
          {/* Like the other figures, a failed load stays quiet; but a count of 0 here would hide new leads. */}
          <p className="stat-card__note">Not available right now. Reload the page to try again.</p>
        </>
      ) : (
        <>
          <p className="stat-card__value" data-value={inbox.count}>
            {formatCount(inbox.count)}
          </p>
          <p className="stat-card__note">{since}</p>
        </>
      )}
      <p className="stat-card__growth">
        <a href="/admin/inquiries" className="stat-card__link">
          Open the inbox
        </a>
      </p>
    </article>
  );
}

/** The call-backs visitors booked for today, earliest window first, each with its number to dial. */
function CallbacksToday({ callbacks }: { callbacks: DashboardStats['callbacksToday'] }) {
  return (
    <section aria-labelledby="callbacks-title" className="admin-section admin-card" data-testid="callbacks-today">
      <h2 id="callbacks-title" className="admin-subtitle">
        Call-backs today
      </h2>
      {!callbacks?.length ? (
        <p>No call-backs are booked for today.</p>
      ) : (
        <ul className="callback-list" role="list">
          {callbacks.map((call) => (
            <li key={call.id}>
              <strong>{call.window}</strong> <span>{call.name}</span> <a href={telHref(call.phone)}>{call.phone}</a>{' '}
              <a href={`/admin/inquiries?q=${encodeURIComponent(call.reference)}`}>{call.reference}</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function LaunchItems({ items }: { items: LaunchReadiness['items'] }) {
  return (
    <ul className="launch-panel__list">
      {items.map((item) => (
        <li key={item.id} data-item={item.id}>
          <CircleAlert size={18} aria-hidden="true" />
          <span>
            {item.text}{' '}
            <a href={item.href}>
              Fix it<span className="visually-hidden">: {item.text}</span>
            </a>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Every built-in default or unverified fact the public site still shows, each linked to where it is fixed. */
function ReadyToLaunch() {
  const { data, isPending, isError } = useQuery({
    queryKey: ['launch-readiness'],
    queryFn: () => api<LaunchReadiness>('/admin/launch-readiness'),
  });
  return (
    <section
      aria-labelledby="launch-title"
      className="admin-section admin-card launch-panel"
      data-testid="launch-readiness"
    >
      <h2 id="launch-title" className="admin-subtitle">
        Ready to launch?
      </h2>
      {isPending ? (
        <p role="status">Checking the site's facts...</p>
      ) : isError || !data ? (
        <p>The launch checklist could not be loaded.</p>
      ) : (
        <>
          {data.ready ? (
            <p className="launch-panel__ok">
              <CircleCheck size={20} aria-hidden="true" /> Every fact on the site is entered and has a source.
            </p>
          ) : (
            <>
              <p>These built-in defaults or unverified facts are still shown on the public site:</p>
              <LaunchItems items={data.items.filter((item) => !item.advice)} />
            </>
          )}
          {data.items.some((item) => item.advice) && (
            <>
              <h3 className="launch-panel__advice">Advice (not blocking launch)</h3>
              <LaunchItems items={data.items.filter((item) => item.advice)} />
            </>
          )}
        </>
      )}
    </section>
  );
}
