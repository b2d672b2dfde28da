/**
 * The applicant page's routes as a browser calls them (the real function handlers, found by route), and
 * applicants to call them with: a stored quote inquiry and a fresh link to its page.
 */
import { randomBytes } from 'node:crypto';
import { fakeContext, handlerFor } from './hostile';
import { storedQuote } from './inquiries';
import { createInquiry, type InquiryRecord } from '../../../src/server/inquiries';
import { issueApplicantLink } from '../../../src/server/applicant-links';
import { createUser, getUser } from '../../../src/server/users';
import { issueToken } from '../../../src/server/tokens';
import { CHUNK_BYTES } from '../../../src/schemas/applicant';

export type Headers = Record<string, string>;

export const call = async (
  route: string,
  path: string,
  init: RequestInit & { params?: Record<string, string> } = {},
) => {
  const { params = {}, ...rest } = init;
  return (await handlerFor(route)!.handler(
    new Request(`http://localhost${path}`, rest),
    fakeContext(params),
  )) as Response;
};

/** A stored quote inquiry. */
export async function quoteInquiry(
  email = `a-${randomBytes(4).toString('hex')}@example.com`,
  firstName = 'Sam',
): Promise<InquiryRecord> {
  return createInquiry({
    kind: 'quote',
    source: 'quote',
    contact: { firstName, lastName: 'Nguyen', email, phone: '0412 345 678' },
    quote: storedQuote(),
  });
}

/** A quote inquiry and the bearer header of a fresh link to its applicant page. */
export async function newApplicant(email?: string) {
  const inquiry = await quoteInquiry(email);
  const link = (await issueApplicantLink(inquiry.id))!;
  const token = link.split('#token=')[1];
  return { inquiry, token, auth: { authorization: `Bearer ${token}` } };
}

/** A PDF (by its first bytes) of `size` bytes. */
export const pdf = (size: number, fill = 7) => {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
  return bytes;
};

export const start = (auth: Headers, name: string, size: number, item = 'general') =>
  call('/api/applicant/evidence', '/api/applicant/evidence', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name, size, item }),
  });

export const chunk = (auth: Headers, uploadId: string, n: number, bytes: Uint8Array) =>
  call('/api/applicant/evidence/:uploadId/chunks/:n', `/api/applicant/evidence/${uploadId}/chunks/${n}`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/octet-stream' },
    body: bytes as BodyInit,
    params: { uploadId, n: String(n) },
  });

export const complete = (auth: Headers, uploadId: string) =>
  call('/api/applicant/evidence/:uploadId/complete', `/api/applicant/evidence/${uploadId}/complete`, {
    method: 'POST',
    headers: auth,
    params: { uploadId },
  });

export const remove = (auth: Headers, uploadId: string) =>
  call('/api/applicant/evidence/:uploadId', `/api/applicant/evidence/${uploadId}`, {
    method: 'DELETE',
    headers: auth,
    params: { uploadId },
  });

/** A whole upload, chunk by chunk: the id, or the first refusal. */
export async function upload(auth: Headers, name: string, bytes: Uint8Array, item = 'general') {
  return sendParts(auth, await start(auth, name, bytes.byteLength, item), bytes);
}

/** The rest of an upload once its start was answered: the parts in order, then the completion. */
export async function sendParts(auth: Headers, started: Response, bytes: Uint8Array) {
  if (started.status !== 201) return { refused: started };
  const { uploadId, chunks } = await started.json();
  for (let n = 0; n < chunks; n++) {
    const sent = await chunk(auth, uploadId, n, bytes.subarray(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES));
    if (sent.status !== 200) return { refused: sent };
  }
  const done = await complete(auth, uploadId);
  return done.status === 200 ? { uploadId: uploadId as string } : { refused: done };
}

/** The bearer header of a staff account of this role (made on first use). */
export async function staffToken(role: 'admin' | 'editor'): Promise<Headers> {
  const username = `appl-${role}`;
  if (!(await getUser(username)))
    await createUser({ username, firstName: 'A', lastName: role, role, password: 'a long enough password' });
  return { authorization: `Bearer ${await issueToken((await getUser(username))!)}` };
}

export const download = (auth: Headers, id: string, fileId: string) =>
  call('/api/admin/applicants/:id/files/:fileId', `/api/admin/applicants/${id}/files/${encodeURIComponent(fileId)}`, {
    headers: auth,
    params: { id, fileId },
  });

/** The applicant's own view, as the page reads it. */
export const ownView = async (auth: Headers) =>
  (await call('/api/applicant', '/api/applicant', { headers: auth })).json();
