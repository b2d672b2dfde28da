import { useState, type ReactNode } from 'react';
import { LogOut, TriangleAlert } from 'lucide-react';
import { useAuth } from './auth';
import { initials } from './format';
import { can, type Permission } from '../lib/roles';

/** Links a role without the permission does not see (the pages themselves say so too). */
export const adminNav: readonly { href: string; label: string; permission?: Permission }[] = [
  { href: '/admin/dashboard', label: 'Dashboard' },
  { href: '/admin/inquiries', label: 'Inquiries', permission: 'inquiries' },
  { href: '/admin/reply-templates', label: 'Reply templates', permission: 'inquiries' },
  { href: '/admin/blogs', label: 'Blogs', permission: 'blogs' },
  { href: '/admin/settings', label: 'Settings', permission: 'settings' },
  { href: '/admin/courses', label: 'Courses', permission: 'catalogue' },
  { href: '/admin/categories', label: 'Categories', permission: 'catalogue' },
  { href: '/admin/users', label: 'Users', permission: 'users' },
  { href: '/admin/activity', label: 'Activity', permission: 'activity' },
  { href: '/admin/account', label: 'Account' },
];

/** Admin header: admin title, page badge, initials, full name, role and Logout (this device only). */
export default function AdminShell({ title, children }: { title: string; children: ReactNode }) {
  const { user, notices, logout } = useAuth();
  const [leaving, setLeaving] = useState(false);
  const path = typeof location === 'undefined' ? '' : location.pathname.replace(/\.html$/, '');

  async function onLogout() {
    setLeaving(true);
    await logout();
  }

  return (
    <div className="admin">
      <header className="admin-header">
        <div className="admin-header__inner">
          <div className="admin-header__title">
            <a className="admin-brand" href="/admin/dashboard">
              RPL Pathways Admin
            </a>
            <span className="admin-badge">
              {title === 'Site Settings' ? 'Settings' : title.replace(/^Manage /, '')}
            </span>
          </div>
          {user && (
            <div className="admin-user">
              <span className="admin-user__initials" aria-hidden="true">
                {initials(user.firstName, user.lastName)}
              </span>
              <span className="admin-user__text">
                <span className="admin-user__name">
                  {user.firstName} {user.lastName}
                </span>
                <span className="admin-user__role">{user.role}</span>
              </span>
              <button type="button" className="admin-btn admin-btn--ghost" onClick={onLogout} disabled={leaving}>
                <LogOut size={18} aria-hidden="true" /> {leaving ? 'Logging out...' : 'Logout'}
              </button>
            </div>
          )}
        </div>
        <nav className="admin-nav" aria-label="Admin">
          <ul role="list">
            {adminNav
              .filter((link) => !link.permission || can(user?.role, link.permission))
              .map((link) => (
                <li key={link.href}>
                  <a href={link.href} aria-current={path === link.href ? 'page' : undefined}>
                    {link.label}
                  </a>
                </li>
              ))}
            <li className="admin-nav__site">
              <a href="/">View site</a>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" className="admin-main" tabIndex={-1}>
        {notices.map((notice) => (
          <p key={notice} className="admin-notice" role="note" data-testid="admin-notice">
            <TriangleAlert size={20} aria-hidden="true" /> {notice}
          </p>
        ))}
        <h1 className="admin-title">{title}</h1>
        {children}
      </main>
    </div>
  );
}
