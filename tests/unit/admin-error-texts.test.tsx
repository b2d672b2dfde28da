// @vitest-environment jsdom
/**
 * Failures without a message from the server read as the specification words them, never as the client's
 * stand-in "Request failed (500)"; a message the server does send is still shown.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import SettingsPage from '../../src/admin/SettingsPage';
import { writeSession } from '../../src/admin/session';
import { defaultSiteSettings } from '../../src/lib/site-settings';

const jsonAnswer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function stubApi(save: () => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      if (path === '/api/admin/site-settings')
        return init?.method === 'POST' ? save() : jsonAnswer(200, defaultSiteSettings);
      if (path === '/api/admin/catalogue') return jsonAnswer(200, { courses: [], categories: [] });
      return jsonAnswer(404, { message: 'not in this test' });
    }),
  );
}

function renderSettings() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <SettingsPage />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  writeSession({
    token: 'header.payload.signature',
    user: { username: 'admin-user', firstName: 'Sam', lastName: 'Staff', role: 'admin' },
  });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('settings save failures', () => {
  it("reads 'Failed to save settings' when the server answers 500 without a message", async () => {
    stubApi(() => new Response('<html>Internal Server Error</html>', { status: 500 }));
    renderSettings();
    fireEvent.click(await screen.findByRole('button', { name: 'Save Settings' }));
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toBe('Failed to save settings');
    expect(screen.queryByText(/Request failed/)).toBeNull();
  });

  it("shows the server's message when it sends one", async () => {
    stubApi(() => jsonAnswer(400, { message: 'Phone numbers may contain digits, spaces, +, ( ) and -' }));
    renderSettings();
    fireEvent.click(await screen.findByRole('button', { name: 'Save Settings' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Phone numbers may contain digits, spaces, +, ( ) and -',
    );
  });
});
