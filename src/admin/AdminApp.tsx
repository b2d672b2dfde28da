import { lazy, Suspense, useEffect, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { AuthProvider, useAuth } from './auth';
import { redirectToLogin } from './session';
import AdminShell from './AdminShell';
import { can, NOT_FOR_ROLE, type Permission } from '../lib/roles';
import './admin.css';
import { Loading } from './Loading';
import { AdminQueryClient } from './query-client';

/** Each page with the permission its role needs (src/lib/roles.ts); the dashboard adapts itself. */
const pages = {
  dashboard: { title: 'Dashboard', Page: lazy(() => import('./DashboardPage')), permission: null },
  settings: { title: 'Site Settings', Page: lazy(() => import('./SettingsPage')), permission: 'settings' },
  inquiries: { title: 'Inquiries', Page: lazy(() => import('./InquiriesPage')), permission: 'inquiries' },
  replyTemplates: {
    title: 'Reply templates',
    Page: lazy(() => import('./ReplyTemplatesPage')),
    permission: 'inquiries',
  },
  blogs: { title: 'Manage Blogs', Page: lazy(() => import('./BlogsPage')), permission: 'blogs' },
  categories: {
    title: 'Manage Categories',
    Page: lazy(() => import('./catalogue/CategoriesPage').then((m) => ({ default: m.CategoriesPage }))),
    permission: 'catalogue',
  },
  courses: {
    title: 'Manage Courses',
    Page: lazy(() => import('./catalogue/CoursesPage').then((m) => ({ default: m.CoursesPage }))),
    permission: 'catalogue',
  },
  users: { title: 'Users', Page: lazy(() => import('./UsersPage')), permission: 'users' },
  activity: { title: 'Activity', Page: lazy(() => import('./ActivityPage')), permission: 'activity' },
  account: { title: 'Account', Page: lazy(() => import('./AccountPage')), permission: null },
} as const satisfies Record<string, { title: string; Page: unknown; permission: Permission | null }>;
export type AdminPageName = keyof typeof pages;

/** Route guard: 'Loading...' while the session is restored, then the page or a redirect to login. */
function Guard({ page }: { page: AdminPageName }) {
  const { status, user } = useAuth();
  useEffect(() => {
    if (status === 'unauthenticated') redirectToLogin();
  }, [status]);
  if (status !== 'authenticated') return <Loading />;
  const { title, Page, permission } = pages[page];
  if (permission && !can(user?.role, permission)) {
    return (
      <AdminShell title={title}>
        <p role="alert" className="admin-banner is-error" data-testid="not-for-role">
          {NOT_FOR_ROLE} <a href="/admin/dashboard">Back to the dashboard</a>
        </p>
      </AdminShell>
    );
  }
  return (
    <AdminShell title={title}>
      <Suspense fallback={<Loading />}>
        <Page />
      </Suspense>
    </AdminShell>
  );
}

export default function AdminApp({ page }: { page: AdminPageName }) {
  const [client] = useState(() => new AdminQueryClient());
  return (
    <QueryClientProvider client={client}>
      <AuthProvider>
        <Guard page={page} />
        {/* Bottom right: at the top the notices sat on the header's Logout button and navigation for their four
            seconds (longer while the pointer rests on them, which pauses them), right where staff go next. */}
        <Toaster position="bottom-right" closeButton />
      </AuthProvider>
    </QueryClientProvider>
  );
}
