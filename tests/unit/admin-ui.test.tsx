// @vitest-environment jsdom
/**
 * Admin islands: the login's fallback text, the dashboard's single retry and what an
 * editor is shown (finding 5: the UI hides what the role cannot use and says so).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AdminQueryClient } from '../../src/admin/query-client';
import LoginPage from '../../src/admin/LoginPage';
import AdminApp from '../../src/admin/AdminApp';
import DashboardPage from '../../src/admin/DashboardPage';
import AdminShell from '../../src/admin/AdminShell';
import { AuthProvider } from '../../src/admin/auth';
import { writeSession } from '../../src/admin/session';
import { NOT_FOR_ROLE } from '../../src/lib/roles';

const STATS = {
  overview: {
    totalCourses: 123,
    totalCategories: 11,
    totalBlogs: 4,
    publishedBlogs: 3,
    totalViews: 999,
    monthlyGrowth: 0,
  },
  recentActivity: { courses: [], blogs: [], categories: [] },
  trends: { coursesGrowth: 0, blogsGrowth: 0, categoriesGrowth: 0, viewsGrowth: 0 },
};
const jsonAnswer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fetch answering by path; every call is recorded. */
function routeFetch(routes: Record<string, (n: number) => Response>) {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    calls.push(path);
    const route = routes[path];
    if (!route) return jsonAnswer(404, { message: 'not in this test' });
    return route(calls.filter((p) => p === path).length);
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

const signIn = (role: string) =>
  writeSession({
    token: 'header.payload.signature',
    user: { username: `${role}-user`, firstName: 'Sam', lastName: 'Staff', role },
  });

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('login failure without a server message', () => {
  it("reads exactly 'Login failed. Please try again.' for a 500 without a message", async () => {
    routeFetch({ '/api/auth/login': () => new Response('<html>Internal Server Error</html>', { status: 500 }) });
    render(<LoginPage />);
    fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'staff' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'some password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    const alert = await screen.findByText('Login failed. Please try again.');
    expect(alert.textContent).toBe('Login failed. Please try again.');
    expect(screen.queryByText(/Request failed/)).toBeNull();
  });

  it("still shows the server's own message when it sends one", async () => {
    routeFetch({ '/api/auth/login': () => jsonAnswer(401, { message: 'Invalid username or password.' }) });
    render(<LoginPage />);
    fireEvent.change(await screen.findByLabelText('Username'), { target: { value: 'staff' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'some password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Invalid username or password.')).toBeTruthy();
  });
});

function renderDashboard() {
  const client = new AdminQueryClient();
  return render(
    <QueryClientProvider client={client}>
      <AuthProvider>
        <DashboardPage />
      </AuthProvider>
    </QueryClientProvider>,
  );
}

describe('dashboard statistics', () => {
  it('retries a failed statistics request once, then shows the figures', async () => {
    signIn('admin');
    const calls = routeFetch({
      '/api/auth/verify': () => jsonAnswer(200, { valid: true }),
      '/api/admin/dashboard-stats': (n) => (n === 1 ? jsonAnswer(503, { message: 'busy' }) : jsonAnswer(200, STATS)),
    });
    renderDashboard();
    await waitFor(() => expect(screen.getByTestId('stat-total-courses').textContent).toContain('123'), {
      timeout: 5000,
    });
    expect(calls.filter((p) => p === '/api/admin/dashboard-stats')).toHaveLength(2);
  });

  it('after a second failure shows zeros, not an error', async () => {
    signIn('admin');
    const calls = routeFetch({
      '/api/auth/verify': () => jsonAnswer(200, { valid: true }),
      '/api/admin/dashboard-stats': () => jsonAnswer(503, { message: 'busy' }),
    });
    renderDashboard();
    await waitFor(() => expect(screen.getByTestId('stat-total-courses')).toBeTruthy(), { timeout: 5000 });
    expect(screen.getByTestId('stat-total-courses').querySelector('[data-value]')!.getAttribute('data-value')).toBe(
      '0',
    );
    expect(calls.filter((p) => p === '/api/admin/dashboard-stats')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

// Before the Logout tests: once the page is on its way to the login page (this test, or Logout), it never redirects again.
describe('a session ended elsewhere', () => {
  it('sends the page to the login page once, however many of its calls meet the 401', async () => {
    signIn('admin');
    const replace = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/admin/dashboard', search: '', replace });
    const calls = routeFetch({
      '/api/auth/verify': () => jsonAnswer(401, { message: 'Session expired' }),
      '/api/admin/dashboard-stats': () => jsonAnswer(401, { message: 'Session expired' }),
      '/api/admin/launch-readiness': () => jsonAnswer(401, { message: 'Session expired' }),
    });
    render(<AdminApp page="dashboard" />);
    // Drawn from the stored session at once; then its check meets the 401 (one reason to go), and the page's guard
    // sees no session and takes the header away (another).
    await screen.findByRole('button', { name: 'Logout' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull());
    expect(calls).toContain('/api/auth/verify');
    expect(localStorage.getItem('token')).toBeNull();
    expect(replace.mock.calls).toEqual([['/admin/login?next=%2Fadmin%2Fdashboard']]);
  });
});

describe('Logout', () => {
  it('goes to the plain login page even when a call of the page meets the revoked token first', async () => {
    signIn('admin');
    const replace = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/admin/dashboard', search: '', replace });
    let answerReadiness: (response: Response) => void = () => {};
    const calls = routeFetch({
      '/api/auth/verify': () => jsonAnswer(200, { valid: true }),
      '/api/admin/dashboard-stats': () => jsonAnswer(200, STATS),
      '/api/admin/launch-readiness': () =>
        new Promise<Response>((resolve) => {
          answerReadiness = resolve;
        }) as unknown as Response,
      '/api/auth/logout': () => {
        // The server has revoked the token: the launch check still under way now meets a 401.
        answerReadiness(jsonAnswer(401, { message: 'Session expired' }));
        return jsonAnswer(200, { message: 'Logged out' });
      },
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AuthProvider>
          <AdminShell title="Dashboard">
            <DashboardPage />
          </AdminShell>
        </AuthProvider>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(calls).toContain('/api/admin/launch-readiness'));
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(replace).toHaveBeenCalled());
    expect(replace.mock.calls).toEqual([['/admin/login']]);
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('finding 5: roles are not enforced (admin UI)', () => {
  it('an editor sees no statistics request, only the blog card and links, and a clear note', async () => {
    signIn('editor');
    const calls = routeFetch({ '/api/auth/verify': () => jsonAnswer(200, { valid: true }) });
    render(<AdminApp page="dashboard" />);
    expect((await screen.findByTestId('stats-not-for-role')).textContent).toContain(NOT_FOR_ROLE);
    const cards = screen.getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(cards).toContain('/admin/blogs');
    for (const hidden of ['/admin/settings', '/admin/inquiries', '/admin/courses', '/admin/categories'])
      expect(cards).not.toContain(hidden);
    expect(calls).not.toContain('/api/admin/dashboard-stats');
  });

  it.each(['settings', 'inquiries', 'courses', 'categories'] as const)(
    'an editor opening %s is told it is not available for the role, and nothing is fetched',
    async (page) => {
      signIn('editor');
      const calls = routeFetch({ '/api/auth/verify': () => jsonAnswer(200, { valid: true }) });
      render(<AdminApp page={page} />);
      expect((await screen.findByTestId('not-for-role')).textContent).toContain(NOT_FOR_ROLE);
      expect(calls.filter((p) => p !== '/api/auth/verify')).toEqual([]);
    },
  );

  it('an admin still sees every card and page', async () => {
    signIn('admin');
    routeFetch({
      '/api/auth/verify': () => jsonAnswer(200, { valid: true }),
      '/api/admin/dashboard-stats': () => jsonAnswer(200, STATS),
    });
    render(<AdminApp page="dashboard" />);
    await screen.findByTestId('stat-total-courses');
    const links = screen.getAllByRole('link').map((link) => link.getAttribute('href'));
    for (const href of ['/admin/blogs', '/admin/settings', '/admin/inquiries', '/admin/courses', '/admin/categories'])
      expect(links).toContain(href);
  });
});

describe('finding 4: an attacker can keep the owner out (sign-in link on the login page)', () => {
  afterEach(() => history.replaceState(null, '', '/'));

  it('redeems ?link= once for a session and removes it from the address', async () => {
    history.replaceState(null, '', `/admin/login?link=${'L'.repeat(43)}`);
    const bodies: unknown[] = [];
    routeFetch({
      '/api/auth/link': () =>
        jsonAnswer(200, {
          token: 'header.payload.signature',
          user: { username: 'olive', firstName: 'Olive', lastName: 'Owner', role: 'admin' },
          message: 'Login successful! Redirecting...',
        }),
    });
    const fetch = globalThis.fetch as unknown as ReturnType<typeof vi.fn>;
    render(<LoginPage />);
    expect(await screen.findByText('Login successful! Redirecting...')).toBeTruthy();
    for (const [, init] of fetch.mock.calls as [string, RequestInit][]) bodies.push(JSON.parse(String(init.body)));
    expect(bodies).toEqual([{ token: 'L'.repeat(43) }]);
    expect(localStorage.getItem('token')).toBe('header.payload.signature');
    expect(location.search).toBe('');
  });

  it("shows the server's message for a used or expired link", async () => {
    history.replaceState(null, '', `/admin/login?link=${'U'.repeat(43)}`);
    routeFetch({
      '/api/auth/link': () =>
        jsonAnswer(400, { message: 'This sign-in link is invalid, used or expired. Please sign in again.' }),
    });
    render(<LoginPage />);
    expect(
      await screen.findByText('This sign-in link is invalid, used or expired. Please sign in again.'),
    ).toBeTruthy();
    expect(localStorage.getItem('token')).toBeNull();
  });
});
