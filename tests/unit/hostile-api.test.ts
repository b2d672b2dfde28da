/**
 * Property-based fuzzing of every API handler in netlify/functions/ against a real local blob server.
 * For random and adversarial methods, bodies, queries, path parameters and headers, every answer must:
 *   - never be a 5xx and never throw;
 *   - carry the security headers itself (Netlify does not add its header rules to function answers);
 *   - on /api/*, be JSON `{ message }` with a non-empty message whenever it refuses (4xx);
 *   - leave every table and file store untouched when it refuses (except what a refusal legitimately records,
 *     such as a failed sign-in), and write only the stores its success is meant to write;
 *   - never pollute Object.prototype.
 * Endpoints are rows of ENDPOINTS, found by their configured route; a row whose function is missing fails,
 * and a function whose route is not in the table fails the coverage test, so no endpoint goes unfuzzed.
 * Each row starts from the same seeded store (a copy taken once), so one row's successful writes do not
 * slow down or colour the next.
 * Replay a failure with the seed fast-check prints: FUZZ_SEED=<seed> npx vitest run tests/unit/hostile-api.test.ts
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import {
  changedStores,
  contentLength,
  contentType,
  fakeContext,
  fillRoute,
  FUNCTIONS,
  FUZZ_SEED,
  fuzzParameters,
  handlerFor,
  hostileBearer,
  hostileKey,
  hostileJson,
  hostileParam,
  hostileString,
  METHODS,
  missingSecurityHeaders,
  mutatedBody,
  RAW_BODIES,
  routeParams,
  keptSnapshots,
  startInspectableBlobs,
  keepTables,
  restoreTables,
  toJsonText,
  type LocalBlobs,
} from './helpers/hostile';
import { createUser, getUser } from '../../src/server/users';
import { issueToken } from '../../src/server/tokens';
import { storeContactInquiry } from './helpers/inquiries';
import { withdrawalSignature } from '../../src/server/marketing-consent';
import { defaultSiteSettings } from '../../src/lib/site-settings';
import { LEVELS } from '../../src/lib/catalogue';
import { categoryEdit, courseEdit, newCourse } from './helpers/catalogue-requests';

const STAFF = { username: 'fuzz-admin', password: 'fuzzing password that is long enough' };

/** What a successful or refused answer may write, by status. `undefined` = not constrained (unknown stores of a future endpoint). */
type Writes = (status: number, method: string) => string[] | undefined;
const NOTHING: Writes = () => [];
/**
 * What a kind of record may touch: its tables (records live in the database) and, where it has files, its blob
 * store. The rows below name the kinds; a change anywhere else fails the row.
 */
const WHERE_KEPT = new Map<string, string[]>([
  ['users', ['staff', 'staff_sessions', 'staff_recovery_codes']],
  ['sessions', ['staff_links', 'sign_in_link_mails', 'staff_sessions']],
  ['throttle', ['sign_in_counters']],
  ['outbox', ['outbox_messages']],
  ['activity', ['activity']],
  ['counters', ['monthly_views', 'monthly_snapshots', 'blog_posts']],
  ['settings', ['site_settings', 'site_settings_versions', 'reply_templates']],
  ['catalogue', ['catalogue_courses', 'catalogue_categories', 'register_checks', 'rebuild_requests']],
  ['inquiries', ['inquiries', 'inquiry_counts', 'inquiry_notes', 'inquiry_replies', 'inquiry_mail', 'inbox_visits']],
  ['marketing', ['marketing_withdrawals']],
  [
    'applicants',
    [
      'applicants',
      'applicant_stages',
      'applicant_links',
      'applicant_reviews',
      'applicant_events',
      'applicant_erasures',
      'applicant_mail',
      'evidence_files',
    ],
  ],
]);
const on2xx =
  (...kinds: string[]): Writes =>
  (status) =>
    status >= 200 && status < 300 ? kinds.flatMap((kind) => [kind, ...(WHERE_KEPT.get(kind) ?? [])]) : [];
const anyOn2xx: Writes = (status) => (status >= 200 && status < 300 ? undefined : []);

interface Endpoint {
  route: string;
  /** Methods the endpoint accepts; others are fuzzed too, less often. */
  methods: string[];
  auth: boolean;
  /** A valid JSON body, mutated by the fuzzer. */
  body?: Record<string, unknown>;
  /** Query keys with valid values, mixed with hostile keys and values. */
  query?: Record<string, string[]>;
  /** Valid values of path parameters, mixed with hostile ones. */
  params?: Record<string, string[]>;
  writes: Writes;
  runs?: number;
  /** What the row exercises, for the coverage table. */
  covers: string;
}

const contactBody = {
  firstName: 'Pat',
  lastName: 'Lee',
  email: 'pat@example.com',
  phone: '0412 345 678',
  message: 'Hello there',
  source: 'contact',
  website: '',
  elapsedMs: 5000,
};
const quoteBody = {
  firstName: 'Pat',
  lastName: 'Lee',
  email: 'pat@example.com',
  phone: '0412 345 678',
  mobileNumber: '',
  preferredContact: 'Any time',
  state: 'NSW',
  selectedCategories: ['civil-construction'],
  selectedCourses: ['CPC30220'],
  experience: '10 years',
  goals: '',
  additionalInfo: '',
  acceptedTerms: true,
  website: '',
  elapsedMs: 5000,
};
const blogBody = {
  title: 'Fuzzed post',
  excerpt: 'An excerpt',
  content: '<p>Body</p>',
  contentType: 'html',
  author: 'Staff',
  featuredImage: '',
  category: 'General',
  tags: ['rpl'],
  seoKeywords: ['rpl'],
  metaTitle: '',
  metaDescription: '',
  isPublished: false,
};
const catalogueEdit = { ...courseEdit('CPC30220'), featured: false };
const inquiryIds: string[] = [];
/** Filled once an inquiry is stored: its id and the signature its e-mail link carries. */
const withdrawalBody = { inquiry: '', signature: '' };
/** Filled with real posts' ids and slugs once the blog exists, so edits and beacons reach their checks (one post each: the edit row may delete its post). */
const blogEditKeys: string[] = ['no-such-post'];
const blogViewKeys: string[] = ['no-such-post'];

const ENDPOINTS: Endpoint[] = [
  {
    route: '/api/auth/login',
    methods: ['POST'],
    auth: false,
    body: { username: STAFF.username, password: STAFF.password },
    // A sign-in records its session (this device) on the account; a wrong password records a failure only.
    writes: (s) =>
      s === 200 ? on2xx('throttle', 'users')(s, 'POST') : s === 401 ? on2xx('throttle')(200, 'POST') : [],
    runs: 120,
    covers: 'body {username,password}; wrong passwords record a failure only',
  },
  {
    route: '/api/auth/link',
    methods: ['POST'],
    auth: false,
    body: { token: 'A'.repeat(43) },
    writes: on2xx('sessions', 'throttle', 'users'),
    runs: 120,
    covers: 'body {token}: one-time sign-in links; unknown tokens write nothing',
  },
  // A valid session is marked as seen (at most every 5 minutes); a refused one writes nothing.
  {
    route: '/api/auth/verify',
    methods: ['GET'],
    auth: true,
    writes: on2xx('users'),
    covers: 'method, bearer token, query',
  },
  {
    route: '/api/auth/logout-everywhere',
    methods: ['POST'],
    auth: true,
    writes: on2xx('users'),
    covers: 'method, bearer token, body ignored',
  },
  // The first owner: refused here for good (setup is off in this run, and an owner exists), so nothing is written.
  {
    route: '/api/auth/setup',
    methods: ['GET', 'POST'],
    auth: false,
    body: {
      secret: 'S'.repeat(40),
      username: 'firstowner',
      firstName: 'First',
      lastName: 'Owner',
      email: 'owner@example.com',
      password: 'a long enough password',
    },
    writes: on2xx('users', 'activity'),
    runs: 60,
    covers: 'body {secret, username, names, email, password}: setup off and an owner already made',
  },
  {
    route: '/api/auth/accept-invite',
    methods: ['POST'],
    auth: false,
    body: { token: 'A'.repeat(43), password: 'a long enough password' },
    writes: on2xx('sessions', 'users'),
    runs: 60,
    covers: 'body {token, password}: invitation links; unknown tokens write nothing',
  },
  {
    route: '/api/admin/users',
    methods: ['GET', 'POST'],
    auth: true,
    body: { email: 'fuzz-invite@example.com', firstName: 'Fuzz', lastName: 'Invite', role: 'editor' },
    writes: on2xx('users', 'sessions', 'outbox', 'activity'),
    covers: 'body {email, firstName, lastName, role}, token',
  },
  {
    route: '/api/admin/users/:username',
    methods: ['PATCH', 'DELETE'],
    auth: true,
    body: { role: 'admin', active: true },
    params: { username: ['fuzz-target', STAFF.username, 'no-such-user'] },
    writes: on2xx('users', 'activity'),
    covers: 'path {username}, body {role?, active?}, token (the last admin and yourself are refused)',
  },
  {
    route: '/api/admin/me',
    methods: ['GET', 'PATCH'],
    auth: true,
    body: { firstName: 'Fuzz', lastName: 'Admin' },
    writes: on2xx('users'),
    covers: 'body {firstName, lastName}, token',
  },
  {
    route: '/api/admin/me/password',
    methods: ['POST'],
    auth: true,
    body: { current: 'not the password at all', next: 'a new fuzzing password here' },
    writes: on2xx('users'),
    runs: 40,
    covers: 'body {current, next}, token (every attempt checks a password)',
  },
  { route: '/api/admin/me/sessions', methods: ['GET'], auth: true, writes: NOTHING, covers: 'method, token, query' },
  {
    route: '/api/admin/me/sessions/:id',
    methods: ['DELETE'],
    auth: true,
    params: { id: ['00000000-0000-4000-8000-000000000000'] },
    writes: on2xx('users'),
    covers: 'path {id}, token',
  },
  {
    route: '/api/admin/me/second-factor',
    methods: ['POST'],
    auth: true,
    body: { password: 'fuzzing password that is long enough' },
    writes: on2xx('users'),
    runs: 40,
    covers: 'body {password}, token (starts a set-up; every attempt checks a password)',
  },
  {
    route: '/api/admin/me/second-factor/confirm',
    methods: ['POST'],
    auth: true,
    body: { code: '123456' },
    writes: on2xx('users', 'activity'),
    runs: 80,
    covers: 'body {code}, token',
  },
  {
    route: '/api/admin/me/second-factor/off',
    methods: ['POST'],
    auth: true,
    body: { password: 'not the password at all' },
    writes: on2xx('users', 'activity'),
    runs: 40,
    covers: 'body {password}, token (every attempt checks a password)',
  },
  {
    route: '/api/auth/logout',
    methods: ['POST'],
    auth: true,
    writes: on2xx('users'),
    covers: 'method, bearer token, body ignored',
  },
  {
    route: '/api/admin/dashboard-stats',
    methods: ['GET'],
    auth: true,
    writes: on2xx('counters'),
    covers: 'method, bearer token',
  },
  {
    route: '/api/public/site-settings',
    methods: ['GET', 'HEAD'],
    auth: false,
    writes: NOTHING,
    covers: 'method, query, stray bodies',
  },
  {
    route: '/api/admin/site-settings',
    methods: ['GET', 'POST'],
    auth: true,
    body: { ...defaultSiteSettings, version: 0 } as unknown as Record<string, unknown>,
    // A save records the rebuild it asked for in the `catalogue` store (rebuild/latest).
    writes: on2xx('settings', 'catalogue', 'activity'),
    covers: 'body {contactInfo, socialMedia, business, partnerRtos, claims} nested, 16 KB cap, token',
  },
  {
    route: '/api/admin/activity',
    methods: ['GET'],
    auth: true,
    query: {
      person: ['fuzz-admin', '~schedule', 'nobody-here'],
      kind: ['settings', 'catalogue', 'post', 'user', 'inquiry'],
      offset: ['0', '1', '30'],
      limit: ['1', '25', '100'],
    },
    writes: NOTHING,
    covers: 'query {person, kind, offset, limit}, token',
  },
  {
    route: '/api/admin/site-settings/rebuild',
    methods: ['GET'],
    auth: true,
    writes: NOTHING,
    covers: 'method, bearer token',
  },
  {
    route: '/api/admin/launch-readiness',
    methods: ['GET'],
    auth: true,
    writes: NOTHING,
    covers: 'method, bearer token',
  },
  {
    route: '/api/admin/inquiries',
    methods: ['GET'],
    auth: true,
    query: {
      status: ['all', 'new', 'handled', 'due', 'overdue'],
      offset: ['0', '1', '5'],
      limit: ['1', '25', '100'],
      q: ['pat', 'example.com', 'CPC30220', 'carpentry', ''],
    },
    writes: on2xx('inquiries'),
    covers:
      'query {status, offset, limit, q}, token (a successful read may complete the inbox index and records the visit)',
  },
  {
    route: '/api/admin/inquiries/export.csv',
    methods: ['GET'],
    auth: true,
    query: { from: ['2026-01-01', '2026-02-30', 'x'], to: ['2026-12-31', '2025-01-01', ''] },
    writes: on2xx('inquiries'),
    covers: 'query {from, to}, method, token (a successful read may complete the inbox index)',
  },
  {
    route: '/api/admin/inquiry-exports',
    methods: ['POST'],
    auth: true,
    // Queues an export (and may complete the inbox index); the background function is not reachable here.
    writes: anyOn2xx,
    runs: 40,
    covers: 'method, token, stray bodies',
  },
  {
    route: '/api/admin/inquiry-exports/:id',
    methods: ['GET'],
    auth: true,
    params: { id: ['0123456789abcdef0123456789abcdef', 'nope'] },
    // An empty id is the start route itself (`/api/admin/inquiry-exports/`): a POST there queues an export.
    writes: anyOn2xx,
    covers: 'path id, method, token',
  },
  {
    route: '/api/admin/inquiry-exports/:id/file',
    methods: ['GET'],
    auth: true,
    params: { id: ['0123456789abcdef0123456789abcdef', '..%2Fjob'] },
    writes: NOTHING,
    covers: 'path id, method, token',
  },
  {
    route: '/api/admin/inquiries/:id',
    methods: ['PATCH'],
    auth: true,
    body: { status: 'handled', assignee: STAFF.username, marketing: 'withdrawn', followUp: '2026-12-01' },
    params: { id: inquiryIds },
    writes: on2xx('inquiries', 'marketing', 'activity'),
    covers: 'path id, body {status, assignee, marketing, followUp}, token',
  },
  {
    route: '/api/admin/inquiries/:id/notes',
    methods: ['POST'],
    auth: true,
    body: { text: 'Called back' },
    params: { id: inquiryIds },
    writes: on2xx('inquiries', 'activity'),
    covers: 'path id, body {text}, 8 KB cap, token',
  },
  {
    route: '/api/admin/inquiries/:id/replies',
    methods: ['POST'],
    auth: true,
    body: { subject: 'About {reference}', body: 'Hi {firstName}, thanks.' },
    params: { id: inquiryIds },
    writes: on2xx('inquiries', 'outbox', 'activity'),
    covers: 'path id, body {subject, body} with placeholders, 32 KB cap, token',
  },
  {
    route: '/api/admin/reply-templates',
    methods: ['GET', 'PUT'],
    auth: true,
    body: {
      version: 0,
      templates: [{ id: 'fuzz', name: 'Fuzz', subject: 'Hi {firstName}', body: 'Text {reference}' }],
    },
    writes: (status, method) => (method === 'PUT' ? on2xx('settings', 'activity')(status, method) : []),
    covers: 'body {version, templates[]} nested, 256 KB cap, token',
  },
  { route: '/api/categories', methods: ['GET', 'HEAD'], auth: false, writes: NOTHING, covers: 'method, query' },
  {
    route: '/api/categories/:slug',
    methods: ['GET', 'HEAD'],
    auth: false,
    params: { slug: ['civil-construction', 'health-fitness'] },
    writes: NOTHING,
    covers: 'path slug',
  },
  {
    route: '/api/categories/:slug/courses',
    methods: ['GET', 'HEAD'],
    auth: false,
    params: { slug: ['civil-construction'] },
    writes: NOTHING,
    covers: 'path slug',
  },
  {
    route: '/api/courses',
    methods: ['GET', 'HEAD'],
    auth: false,
    query: {
      search: ['diploma', 'cert 3', 'CPC30220', ''],
      category: ['civil-construction', ''],
      level: [...LEVELS, ''],
      featured: ['true', 'false'],
      limit: ['1', '10', '1000'],
    },
    writes: NOTHING,
    covers: 'query {search, category, level, featured, limit}',
  },
  {
    route: '/api/courses/search-options',
    methods: ['GET', 'HEAD'],
    auth: false,
    writes: NOTHING,
    covers: 'method, query',
  },
  {
    route: '/api/course-details/:code',
    methods: ['GET', 'HEAD'],
    auth: false,
    params: { code: ['CPC30220', 'bsb50120', ' BSB50120 '] },
    writes: NOTHING,
    covers: 'path code',
  },
  {
    route: '/api/email/contact',
    methods: ['POST'],
    auth: false,
    body: contactBody,
    writes: on2xx('inquiries', 'outbox'),
    runs: 200,
    covers: 'body (5 fields, source, honeypot, elapsedMs), 32 KB cap, content type',
  },
  {
    route: '/api/email/quote',
    methods: ['POST'],
    auth: false,
    body: quoteBody,
    // A stored quote gets its applicant page's link (applicants store).
    writes: on2xx('inquiries', 'outbox', 'applicants'),
    runs: 200,
    covers: 'body (quote fields, arrays of slugs/codes, terms), 32 KB cap',
  },
  {
    route: '/api/public/marketing-withdrawal',
    methods: ['POST'],
    auth: false,
    body: withdrawalBody,
    writes: on2xx('marketing'),
    runs: 150,
    covers: 'body {inquiry, signature} from an e-mail link; a forged or altered signature writes nothing',
  },
  {
    route: '/categories/:slug',
    methods: ['GET'],
    auth: false,
    params: { slug: ['health-fitness'] },
    writes: NOTHING,
    covers: 'path slug (301 or 404)',
  },
  {
    route: '/courses/category/:slug',
    methods: ['GET'],
    auth: false,
    params: { slug: ['health-fitness'] },
    writes: NOTHING,
    covers: 'path slug (301 or 404)',
  },
  // Blog (issue 6): active as soon as functions with these routes exist.
  {
    route: '/api/blogs',
    methods: ['GET', 'HEAD', 'POST'],
    auth: true,
    body: blogBody,
    query: { page: ['1', '2'], limit: ['9'], search: ['rpl', ''], tag: ['rpl'] },
    writes: anyOn2xx,
    covers: 'public list query; POST body (blog form), token',
  },
  {
    route: '/api/blogs/:slug',
    methods: ['GET', 'HEAD', 'PUT', 'DELETE'],
    auth: true,
    body: { ...blogBody, version: 1 },
    params: { slug: blogEditKeys },
    writes: anyOn2xx,
    covers: 'path slug/id; PUT body + version; DELETE; token',
  },
  { route: '/api/blogs/admin/all', methods: ['GET'], auth: true, writes: NOTHING, covers: 'method, token' },
  {
    route: '/api/blogs/admin/publish-due',
    methods: ['POST'],
    auth: true,
    writes: anyOn2xx,
    covers: 'method, token (publishes due posts)',
  },
  {
    route: '/api/blogs/admin/:id/revisions',
    methods: ['GET', 'POST'],
    auth: true,
    body: { revision: 1, version: 1 },
    params: { id: blogEditKeys },
    writes: anyOn2xx,
    covers: 'path id; POST body {revision, version}; token',
  },
  {
    route: '/api/blogs/:slug/view',
    methods: ['POST'],
    auth: false,
    params: { slug: blogViewKeys },
    writes: anyOn2xx,
    covers: 'path slug (view beacon)',
  },
  {
    route: '/api/upload/image',
    methods: ['POST'],
    auth: true,
    writes: anyOn2xx,
    covers: 'content type, body, token (multipart attacks: hostile-upload.test.ts)',
  },
  { route: '/api/uploads', methods: ['GET'], auth: true, writes: NOTHING, covers: 'method, token (media picker list)' },
  {
    route: '/api/uploads/:key',
    methods: ['GET', 'HEAD'],
    auth: false,
    params: { key: ['0123456789abcdef0123456789abcdef.webp'] },
    writes: NOTHING,
    covers: 'path key',
  },
  // The applicant page (issue 25): a link token, not a staff session; hostile bearers are refused with 401.
  { route: '/api/applicant', methods: ['GET'], auth: false, writes: NOTHING, covers: 'method, bearer link token' },
  {
    route: '/api/applicant/callback',
    methods: ['POST'],
    auth: false,
    body: { day: '2026-11-30', window: '8:00 am – 10:00 am' },
    writes: NOTHING,
    covers: 'body {day, window}, link token',
  },
  {
    route: '/api/applicant/evidence',
    methods: ['POST'],
    auth: false,
    body: { name: 'a.pdf', size: 1000, item: 'general' },
    writes: NOTHING,
    covers: 'body {name, size, item}, link token',
  },
  {
    route: '/api/applicant/evidence/:uploadId',
    methods: ['DELETE'],
    auth: false,
    params: { uploadId: ['0123456789abcdef0123456789abcdef'] },
    writes: NOTHING,
    covers: 'path upload id, link token',
  },
  {
    route: '/api/applicant/evidence/:uploadId/chunks/:n',
    methods: ['PUT'],
    auth: false,
    params: { uploadId: ['0123456789abcdef0123456789abcdef'], n: ['0', '1', '999'] },
    writes: NOTHING,
    covers: 'path upload id and chunk number, raw body, link token (attacks: applicant-attacks.test.ts)',
  },
  {
    route: '/api/applicant/evidence/:uploadId/complete',
    methods: ['POST'],
    auth: false,
    params: { uploadId: ['0123456789abcdef0123456789abcdef'] },
    writes: NOTHING,
    covers: 'path upload id, link token',
  },
  {
    route: '/api/applicant/link',
    methods: ['POST'],
    auth: false,
    body: { email: 'pat@example.com', reference: 'RPL-ABCDEF' },
    writes: on2xx('applicants', 'outbox'),
    covers: 'body {email, reference}; the same 202 whatever matches',
  },
  {
    route: '/api/admin/applicants/:id',
    methods: ['GET', 'PATCH'],
    auth: true,
    body: { stage: 'gathering' },
    params: { id: inquiryIds },
    writes: on2xx('applicants', 'outbox'),
    covers: 'path id, body {stage}, token',
  },
  {
    route: '/api/admin/applicants/:id/items/:itemId',
    methods: ['PUT'],
    auth: true,
    body: { status: 'needs-more', note: 'More please' },
    params: { id: inquiryIds, itemId: ['general', 'ev-0123456789'] },
    writes: on2xx('applicants', 'outbox'),
    covers: 'path id and item id, body {status, note}, token',
  },
  {
    route: '/api/admin/applicants/:id/files/:fileId',
    methods: ['GET'],
    auth: true,
    params: { id: inquiryIds, fileId: ['0123456789abcdef0123456789abcdef'] },
    writes: NOTHING,
    covers: 'path id and file id, token',
  },
  {
    route: '/api/admin/applicants/:id/revoke',
    methods: ['POST'],
    auth: true,
    params: { id: inquiryIds },
    writes: on2xx('applicants'),
    covers: 'path id, token',
  },
  {
    route: '/api/admin/applicants/:id/erase',
    methods: ['POST'],
    auth: true,
    body: { confirm: 'RPL-ABCDEF' },
    params: { id: inquiryIds },
    writes: on2xx('applicants', 'inquiries', 'evidence'),
    runs: 60,
    covers: 'path id, body {confirm}, token',
  },
  // Catalogue editing (admin role): every save is one conditional write to the `catalogue` store.
  { route: '/api/admin/catalogue', methods: ['GET'], auth: true, writes: NOTHING, covers: 'method, token' },
  { route: '/api/admin/catalogue/rebuild', methods: ['GET'], auth: true, writes: NOTHING, covers: 'method, token' },
  {
    route: '/api/admin/catalogue/courses',
    methods: ['POST'],
    auth: true,
    body: newCourse('CPC39991', 'Certificate III in Fuzzing'),
    writes: on2xx('catalogue', 'activity'),
    runs: 60,
    covers: 'body {code, facts, edit} (new qualification), 64 KB cap, token',
  },
  {
    route: '/api/admin/catalogue/courses/:code',
    methods: ['GET', 'PUT'],
    auth: true,
    body: { version: 0, edit: catalogueEdit },
    params: { code: ['CPC30220', 'cpc30220'] },
    writes: on2xx('catalogue', 'activity'),
    runs: 80,
    covers: 'path code, body {version, edit} nested lists, token',
  },
  {
    route: '/api/admin/catalogue/courses/:code/register-check',
    methods: ['PUT'],
    auth: true,
    body: { version: 0, status: 'current', title: 'Certificate III in Carpentry', workHours: 120 },
    params: { code: ['CPC30220', 'cpc30220'] },
    writes: on2xx('catalogue', 'activity'),
    runs: 60,
    covers: 'path code, body {version, status, title, workHours}, token',
  },
  {
    route: '/api/admin/catalogue/categories/:slug',
    methods: ['GET', 'PUT'],
    auth: true,
    body: categoryEdit,
    params: { slug: ['health-fitness'] },
    writes: on2xx('catalogue', 'activity'),
    runs: 80,
    covers: 'path slug, body {version, edit}, token',
  },
];

/** Functions deliberately not fuzzed here, and why. */
const NOT_FUZZED: Record<string, string> = {
  '/courses/:code':
    'serves the pre-rendered Course Not Found page by fetching it from the site; its headers and status are checked against the running server in tests/e2e/security-headers.spec.ts',
  '/category/:slug':
    "serves the pre-rendered 'Category not found.' page the same way (tests/unit/not-found-pages.test.ts, tests/e2e/catalogue.spec.ts)",
};

interface Attempt {
  method: string;
  params: Record<string, string>;
  query: [string, string][];
  body: string | Uint8Array | undefined;
  contentType: string | undefined;
  contentLength: string | undefined;
  auth: string;
  ip: string;
}

function bodies(base: Record<string, unknown> | undefined): fc.Arbitrary<string | Uint8Array | undefined> {
  const choices: fc.WeightedArbitrary<string | Uint8Array | undefined>[] = [
    { weight: 2, arbitrary: hostileJson.map(toJsonText) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ];
  if (base) {
    choices.push(
      { weight: 6, arbitrary: mutatedBody(base).map(toJsonText) },
      { weight: 1, arbitrary: fc.constant(toJsonText(base)) },
    );
  }
  return fc.oneof(...choices);
}

function attempts(row: Endpoint): fc.Arbitrary<Attempt> {
  const names = routeParams(row.route);
  const param = (name: string) => {
    const valid = row.params?.[name] ?? [];
    return valid.length
      ? fc.oneof({ weight: 2, arbitrary: hostileParam }, { weight: 1, arbitrary: fc.constantFrom(...valid) })
      : hostileParam;
  };
  const queryKeys = Object.keys(row.query ?? {});
  const queryPair: fc.Arbitrary<[string, string]> = queryKeys.length
    ? fc.oneof(
        {
          weight: 3,
          arbitrary: fc
            .constantFrom(...queryKeys)
            .chain((key) => fc.tuple(fc.constant(key), fc.oneof(fc.constantFrom(...row.query![key]), hostileString))),
        },
        { weight: 1, arbitrary: fc.tuple(hostileKey, hostileString) },
      )
    : fc.tuple(hostileKey, hostileString);
  return fc.record({
    method: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...row.methods) },
      { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
    ),
    params: fc.record(Object.fromEntries(names.map((name) => [name, param(name)]))) as fc.Arbitrary<
      Record<string, string>
    >,
    query: fc.array(queryPair, { maxLength: queryKeys.length ? 6 : 2 }),
    body: bodies(row.body),
    contentType,
    contentLength,
    auth: row.auth
      ? fc.oneof(
          { weight: 6, arbitrary: fc.constant('valid') },
          { weight: 1, arbitrary: fc.constant('none') },
          { weight: 2, arbitrary: hostileBearer },
        )
      : fc.oneof({ weight: 4, arbitrary: fc.constant('none') }, { weight: 1, arbitrary: hostileBearer }),
    ip: fc.oneof(fc.constant('203.0.113.10'), fc.ipV4(), fc.ipV6()),
  });
}

async function buildRequest(row: Endpoint, attempt: Attempt): Promise<Request> {
  const url = new URL(`http://localhost${fillRoute(row.route, attempt.params)}`);
  for (const [key, value] of attempt.query) url.searchParams.append(key, value);
  const headers = new Headers();
  if (attempt.contentType !== undefined) headers.set('content-type', attempt.contentType);
  if (attempt.contentLength !== undefined) headers.set('content-length', attempt.contentLength);
  if (attempt.auth === 'valid')
    headers.set('authorization', `Bearer ${await issueToken((await getUser(STAFF.username))!)}`);
  else if (attempt.auth !== 'none') headers.set('authorization', attempt.auth);
  const hasBody = attempt.method !== 'GET' && attempt.method !== 'HEAD' && attempt.body !== undefined;
  return new Request(url, {
    method: attempt.method,
    headers,
    body: hasBody ? (attempt.body as BodyInit | undefined) : undefined,
  });
}

const describeAttempt = (row: Endpoint, a: Attempt) =>
  `${a.method} ${fillRoute(row.route, a.params)}?${new URLSearchParams(a.query)} auth=${a.auth.slice(0, 40)} type=${a.contentType} length=${a.contentLength} body=${typeof a.body === 'string' ? a.body.slice(0, 200) : a.body ? `<${a.body.byteLength} bytes>` : 'none'}`;

let blobs: LocalBlobs;
let snapshots: ReturnType<typeof keptSnapshots>;
/** A copy of the store as seeded in beforeAll; every row starts from it. */
let seeded: string;
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort().join();
const stats = new Map<string, { runs: number; statuses: Map<number, number> }>();

/** Stands in for the platform in front of the background export: takes the call (202) and runs nothing. */
let platform: Server | undefined;

beforeAll(async () => {
  process.env.JWT_SECRET = 'hostile-suite-secret-that-is-long-enough-0123456789';
  delete process.env.RESEND_API_KEY;
  platform = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.statusCode = 202;
      response.end();
    });
  });
  await new Promise<void>((resolve) => platform!.listen(0, '127.0.0.1', resolve));
  vi.stubEnv('LOCAL_CDN_URL', `http://127.0.0.1:${(platform.address() as AddressInfo).port}`);
  vi.stubEnv('LOCAL_CDN_TOKEN', 'hostile-suite-front-door');
  blobs = await startInspectableBlobs();
  snapshots = keptSnapshots(blobs);
  await createUser({
    username: STAFF.username,
    firstName: 'Fuzz',
    lastName: 'Admin',
    role: 'admin',
    password: STAFF.password,
  });
  for (const day of [1, 2]) {
    const at = new Date(Date.UTC(2026, 0, day));
    inquiryIds.push((await storeContactInquiry({ firstName: 'Ann', email: 'ann@example.com' }, { at })).id);
  }
  withdrawalBody.inquiry = inquiryIds[0]!;
  withdrawalBody.signature = withdrawalSignature(inquiryIds[0]!)!;
  // One inbox read, as a live site has had many (it records the staff member's visit).
  const inbox = await handlerFor('/api/admin/inquiries')!.handler(
    new Request('http://localhost/api/admin/inquiries', {
      headers: { authorization: `Bearer ${await issueToken((await getUser(STAFF.username))!)}` },
    }),
    fakeContext({}),
  );
  expect((inbox as Response).status, 'a first inbox read').toBe(200);
  const blogs = handlerFor('/api/blogs');
  if (blogs) {
    const token = await issueToken((await getUser(STAFF.username))!);
    for (const [keys, title] of [
      [blogEditKeys, 'Post to edit'],
      [blogViewKeys, 'Post to view'],
    ] as const) {
      const created = (await blogs.handler(
        new Request('http://localhost/api/blogs', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...blogBody, title, isPublished: true }),
        }),
        fakeContext({}),
      )) as Response;
      expect(created.status, 'a post to fuzz edits and beacons against').toBeLessThan(300);
      const { blog } = await created.json();
      keys.push(blog._id, blog.slug, blog.slug);
    }
  }
  await createUser({
    username: 'fuzz-target',
    firstName: 'Fuzz',
    lastName: 'Target',
    role: 'editor',
    password: 'fuzz target password, long',
  });
  seeded = await mkdtemp(join(tmpdir(), 'blobs-hostile-seeded-'));
  await cp(blobs.directory, seeded, { recursive: true });
  await keepTables(blobs.database);
});
afterAll(async () => {
  platform?.close();
  await blobs?.stop();
  if (seeded) await rm(seeded, { recursive: true, force: true });
  const rows = [...stats].map(([route, { runs, statuses }]) => ({
    route,
    runs,
    statuses: [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}x${n}`)
      .join(' '),
  }));
  process.stdout.write(
    `\nhostile-api (seed ${FUZZ_SEED}):\n${rows.map((r) => `  ${r.route.padEnd(36)} ${String(r.runs).padStart(4)} runs  ${r.statuses}`).join('\n')}\n`,
  );
});
beforeEach(() => {
  // The local outbox and the lockout log every message; the fuzzer sends thousands.
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('the fuzz table covers every function', () => {
  it('lists every configured route of netlify/functions (or says why not)', () => {
    const covered = new Set([...ENDPOINTS.map((row) => row.route), ...Object.keys(NOT_FUZZED)]);
    const routed = FUNCTIONS.flatMap((fn) => fn.paths.map((path) => `${fn.file}: ${path}`));
    expect(routed.length).toBeGreaterThan(10);
    expect(routed.filter((entry) => !covered.has(entry.split(': ')[1]))).toEqual([]);
    // The only functions without a route are the scheduled ones (blog publishing, mail retry, evidence and activity
    // retention), which take no input, the background export, which runs only an export a staff token queued
    // (tests/unit/inquiry-export.test.ts calls it without a token, with an editor's and again after it ran), and the
    // deploy events, which only the platform calls (tests/unit/deploy-notices.test.ts).
    expect(
      FUNCTIONS.filter((fn) => fn.paths.length === 0)
        .map((fn) => fn.file)
        .sort(),
    ).toEqual([
      'activity-retention.mts',
      'blog-schedule.mts',
      'deploy-events.mts',
      'evidence-retention.mts',
      'inquiry-export-background.mts',
      'mail-retry.mts',
    ]);
  });
});

/** Puts the blob folder (the server reads its files on every request) and the tables back as seeded. */
async function restoreSeededStore() {
  await restoreTables(blobs.database);
  for (const name of await readdir(blobs.directory))
    await rm(join(blobs.directory, name), { recursive: true, force: true });
  await cp(seeded, blobs.directory, { recursive: true });
  snapshots.forget();
}

describe.each(ENDPOINTS)('$route', (row) => {
  it('answers hostile input with a 4xx at worst, headers intact, nothing stored on refusal', async () => {
    const fn = handlerFor(row.route);
    expect(fn, `a function in netlify/functions with the route ${row.route}`).toBeDefined();
    await restoreSeededStore();
    const entry = { runs: 0, statuses: new Map<number, number>() };
    stats.set(row.route, entry);
    await fc.assert(
      fc.asyncProperty(attempts(row), async (attempt) => {
        const request = await buildRequest(row, attempt);
        const before = await snapshots.now();
        let response: Response | undefined;
        try {
          response = await fn!.handler(request, fakeContext(attempt.params, attempt.ip));
        } catch (cause) {
          throw new Error(`handler threw (a 500 in production) for ${describeAttempt(row, attempt)}: ${String(cause)}`);
        }
        if (!(response instanceof Response)) throw new Error(`no Response for ${describeAttempt(row, attempt)}`);
        const { status } = response;
        entry.runs += 1;
        entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
        const where = `${status} for ${describeAttempt(row, attempt)}`;

        expect(status, where).toBeLessThan(500);
        expect(missingSecurityHeaders(response), where).toEqual([]);
        if (status >= 400 && row.route.startsWith('/api/')) {
          expect(response.headers.get('content-type') ?? '', where).toMatch(/^application\/json/);
          const body = JSON.parse(await response.text());
          expect(typeof body.message === 'string' && body.message.trim().length > 0, `message in ${where}`).toBe(true);
        }
        const after = await snapshots.now();
        const allowed = row.writes(status, attempt.method);
        if (allowed)
          expect(
            changedStores(before, after).filter((store) => !allowed.includes(store)),
            `stores written: ${where}`,
          ).toEqual([]);
        expect(Object.getOwnPropertyNames(Object.prototype).sort().join(), where).toBe(prototypeKeys);
        expect(({} as Record<string, unknown>).polluted, where).toBeUndefined();
      }),
      fuzzParameters(row.runs ?? 150),
    );
  }, 180_000);
});
