import { siteAddress } from '../platform/site.ts';
import { randomBytes } from 'node:crypto';
import { bearerToken, unauthorized } from './auth';
import { getInquiry, type InquiryRecord } from './inquiries';
import { db, sql } from '../platform/database';
import { LINK_LIFETIME_DAYS } from '../schemas/applicant';
import { DAY_MS, INVALID_LINK, MAX_TOKENS, ensureApplicant, hashToken } from './applicant-records';

/**
 * Applicant links: the private link to the applicant page (a 256-bit token, only its SHA-256 stored in
 * applicant_links, kept LINK_LIFETIME_DAYS), its revocation, the spacing of requests for a new one, and who a
 * request's token opens.
 */

/* ---------- links ---------- */

/** The site's public address for the applicant's links (src/platform/site.ts: never a request's Host). */
export const siteUrl = siteAddress;

/**
 * A fresh private link to an inquiry's applicant page (a quote inquiry's only), valid LINK_LIFETIME_DAYS:
 * 256 random bits in the address's fragment, so it never reaches a server log. Null when there is no such
 * quote inquiry or its data was erased.
 */
export async function issueApplicantLink(inquiryId: string, now = new Date()): Promise<string | null> {
  const inquiry = await getInquiry(inquiryId);
  if (inquiry?.kind !== 'quote' || inquiry.erasedAt) return null;
  const token = randomBytes(32).toString('base64url');
  const issuedAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_DAYS * DAY_MS).toISOString();
  await db().transaction(async (tx) => {
    await ensureApplicant(tx, inquiryId, now);
    // The applicant row locked, so two links issued at once cannot both keep MAX_TOKENS others.
    await tx.query(sql`SELECT 1 FROM applicants WHERE inquiry_id = ${inquiryId} FOR UPDATE`);
    await tx.query(sql`
      INSERT INTO applicant_links (token_hash, inquiry_id, issued_at, expires_at)
      VALUES (${hashToken(token)}, ${inquiryId}, ${issuedAt}, ${expiresAt})`);
    // Expired links and all but the newest MAX_TOKENS go.
    await tx.query(sql`
      DELETE FROM applicant_links
      WHERE inquiry_id = ${inquiryId}
        AND (expires_at <= ${issuedAt}
          OR token_hash IN (
            SELECT token_hash FROM applicant_links WHERE inquiry_id = ${inquiryId}
            ORDER BY issued_at DESC, token_hash OFFSET ${MAX_TOKENS}))`);
  });
  return `${siteUrl()}/apply#token=${token}`;
}

/**
 * Staff revoke every link of an applicant: each one stops working at once. False when the inquiry has no
 * applicant (no link was ever issued).
 */
export async function revokeLinks(inquiryId: string, now = new Date()): Promise<boolean> {
  const rows = await db().query(sql`
    WITH gone AS (DELETE FROM applicant_links WHERE inquiry_id = ${inquiryId} RETURNING 1)
    INSERT INTO applicant_events (inquiry_id, at, type, detail)
    SELECT inquiry_id, ${now.toISOString()}::timestamptz, 'link-revoked', (SELECT count(*) FROM gone)::text
    FROM applicants WHERE inquiry_id = ${inquiryId}
    RETURNING inquiry_id`);
  return rows.length > 0;
}

/**
 * Notes that a link e-mail was asked for; false when one was asked for less than `spacingMs` ago. One
 * conditional write, so of two requests at once only one claims.
 */
export async function claimLinkMail(inquiryId: string, spacingMs: number, now = new Date()): Promise<boolean> {
  const at = now.toISOString();
  const rows = await db().query(sql`
    INSERT INTO applicants (inquiry_id, created_at, last_link_mail_at) VALUES (${inquiryId}, ${at}, ${at})
    ON CONFLICT (inquiry_id) DO UPDATE SET last_link_mail_at = EXCLUDED.last_link_mail_at
    WHERE applicants.last_link_mail_at IS NULL
       OR applicants.last_link_mail_at <= ${new Date(now.getTime() - spacingMs).toISOString()}
    RETURNING inquiry_id`);
  return rows.length > 0;
}

export interface ApplicantSession {
  inquiry: InquiryRecord;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The applicant a request's link token opens: `Authorization: Bearer <token>`, a token whose hash is stored
 * (a revoked one is deleted), not expired, of an inquiry that still exists and was not erased. Otherwise a 401
 * that says to ask for a new link.
 */
export async function applicantOf(
  request: Request,
  now = new Date(),
): Promise<{ ok: true; session: ApplicantSession } | { ok: false; response: Response }> {
  const token = bearerToken(request);
  if (!token) return { ok: false, response: unauthorized('Open this page from the link in your e-mail.') };
  const refused = { ok: false as const, response: unauthorized(INVALID_LINK) };
  if (!TOKEN_SHAPE.test(token)) return refused;
  const [link] = await db().query<{ inquiry_id: string }>(sql`
    SELECT l.inquiry_id FROM applicant_links l JOIN applicants a ON a.inquiry_id = l.inquiry_id
    WHERE l.token_hash = ${hashToken(token)} AND l.expires_at > ${now.toISOString()}`);
  if (!link) return refused;
  const inquiry = await getInquiry(link.inquiry_id);
  if (!inquiry || inquiry.erasedAt) return refused;
  return { ok: true, session: { inquiry } };
}
