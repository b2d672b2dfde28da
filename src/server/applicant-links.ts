import { randomBytes } from 'node:crypto';
import { bearerToken, unauthorized } from './auth';
import { getInquiry, type InquiryRecord } from './inquiries';
import { LINK_LIFETIME_DAYS, type ApplicantRecord } from '../schemas/applicant';
import {
  DAY_MS,
  INVALID_LINK,
  MAX_TOKENS,
  applicants,
  event,
  getApplicant,
  hashToken,
  tokenKey,
  updateApplicant,
} from './applicant-records';

/**
 * Applicant links: the private link to the applicant page (a 256-bit token, only its SHA-256 stored, kept
 * LINK_LIFETIME_DAYS), its revocation, the spacing of requests for a new one, and who a request's token opens.
 */

/* ---------- links ---------- */

export function siteUrl(): string {
  return (process.env.SITE_URL || process.env.URL || 'https://rplpathways.com.au').replace(/\/$/, '');
}

/**
 * A fresh private link to an inquiry's applicant page (a quote inquiry's only), valid LINK_LIFETIME_DAYS:
 * 256 random bits in the address's fragment, so it never reaches a server log. Null when there is no such
 * quote inquiry or its data was erased.
 */
export async function issueApplicantLink(inquiryId: string, now = new Date()): Promise<string | null> {
  const inquiry = await getInquiry(inquiryId);
  if (inquiry?.kind !== 'quote' || inquiry.erasedAt) return null;
  const token = randomBytes(32).toString('base64url');
  const hash = hashToken(token);
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_DAYS * DAY_MS).toISOString();
  // The lookup entry first: an entry without the record's hash opens nothing.
  await applicants().setJSON(tokenKey(hash), { inquiryId, expiresAt });
  let dropped: string[] = [];
  await updateApplicant(
    inquiryId,
    (record) => {
      const live = record.tokens.filter((t) => Date.parse(t.expiresAt) > now.getTime());
      const all = [...live, { hash, issuedAt: now.toISOString(), expiresAt }];
      dropped = [
        ...record.tokens.filter((t) => !live.includes(t)),
        ...all.slice(0, Math.max(0, all.length - MAX_TOKENS)),
      ].map((t) => t.hash);
      record.tokens = all.slice(-MAX_TOKENS);
      return record;
    },
    { create: true, now },
  );
  await Promise.all(dropped.map((old) => applicants().delete(tokenKey(old))));
  return `${siteUrl()}/apply#token=${token}`;
}

/** Staff revoke every link of an applicant: each one stops working at once. */
export async function revokeLinks(inquiryId: string, now = new Date()): Promise<ApplicantRecord | null> {
  let hashes: string[] = [];
  const record = await updateApplicant(inquiryId, (current) => {
    hashes = current.tokens.map((t) => t.hash);
    current.tokens = [];
    event(current, 'link-revoked', `${hashes.length}`, now);
    return current;
  });
  await Promise.all(hashes.map((hash) => applicants().delete(tokenKey(hash))));
  return record;
}

/** Notes that a link e-mail was asked for; false when one was asked for less than `spacingMs` ago. */
export async function claimLinkMail(inquiryId: string, spacingMs: number, now = new Date()): Promise<boolean> {
  let claimed = false;
  await updateApplicant(
    inquiryId,
    (record) => {
      if (record.lastLinkMailAt && now.getTime() - Date.parse(record.lastLinkMailAt) < spacingMs) return undefined;
      claimed = true;
      record.lastLinkMailAt = now.toISOString();
      return record;
    },
    { create: true, now },
  );
  return claimed;
}

export interface ApplicantSession {
  inquiry: InquiryRecord;
  record: ApplicantRecord;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The applicant a request's link token opens: `Authorization: Bearer <token>`, a token whose hash is stored,
 * not expired, not revoked, of an inquiry that still exists. Otherwise a 401 that says to ask for a new link.
 */
export async function applicantOf(
  request: Request,
  now = new Date(),
): Promise<{ ok: true; session: ApplicantSession } | { ok: false; response: Response }> {
  const token = bearerToken(request);
  if (!token) return { ok: false, response: unauthorized('Open this page from the link in your e-mail.') };
  const refused = { ok: false as const, response: unauthorized(INVALID_LINK) };
  if (!TOKEN_SHAPE.test(token)) return refused;
  const hash = hashToken(token);
  const entry = (await applicants().get(tokenKey(hash), { type: 'json' })) as {
    inquiryId?: unknown;
    expiresAt?: unknown;
  } | null;
  if (!entry || typeof entry.inquiryId !== 'string' || typeof entry.expiresAt !== 'string') return refused;
  if (Date.parse(entry.expiresAt) <= now.getTime()) return refused;
  const record = await getApplicant(entry.inquiryId);
  const stored = record?.tokens.find((t) => t.hash === hash);
  if (!record || !stored || Date.parse(stored.expiresAt) <= now.getTime()) return refused;
  const inquiry = await getInquiry(entry.inquiryId);
  if (!inquiry || inquiry.erasedAt) return refused;
  return { ok: true, session: { inquiry, record } };
}
