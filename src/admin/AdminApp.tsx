import { lazy, Suspense, useEffect, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { AuthProvider, useAuth } from './auth';
import { redirectToLogin } from './session';
import AdminShell from './AdminShell';
import './admin.css';

const pages = {
  dashboard: { title: 'Dashboard', Page: lazy(() => import('./DashboardPage')) },
  settings: { title: 'Site Settings', Page: lazy(() => import('./SettingsPage')) },
  inquiries: { title: 'Inquiries', Page: lazy(() => import('./InquiriesPage')) },
  blogs: { title: 'Manage Blogs', Page: lazy(() => import('./BlogsPage')) },
  categories: { title: 'Manage Categories', Page: lazy(() => import('./CataloguePage').then((m) => ({ default: m.CategoriesPage }))) },
  courses: { title: 'Manage Courses', Page: lazy(() => import('./CataloguePage').then((m) => ({ default: m.CoursesPage }))) },
} as const;
export type AdminPageName = keyof typeof pages;

/** SPEC 7: admin data is fetched once, retried once, not refetched on window focus. */
function makeQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

function Loading({ text = 'Loading...' }: { text?: string }) {
  return (
    <p className="admin-loading" role="status">
      {text}
    </p>
  );
}

/** SPEC 2.2 guard: 'Loading...' while the session is restored, then the page or a redirect to login. */
function Guard({ page }: { page: AdminPageName }) {
  const { status } = useAuth();
  useEffect(() => {
    if (status === 'unauthenticated') redirectToLogin();
  }, [status]);
  if (status !== 'authenticated') return <Loading />;
  const { title, Page } = pages[page];
  return (
    <AdminShell title={title}>
      <Suspense fallback={<Loading />}>
        <Page />
      </Suspense>
    </AdminShell>
  );
}

export default function AdminApp({ page }: { page: AdminPageName }) {
  const [client] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <AuthProvider>
        <Guard page={page} />
        <Toaster position="top-right" closeButton />
      </AuthProvider>
    </QueryClientProvider>
  );
}
