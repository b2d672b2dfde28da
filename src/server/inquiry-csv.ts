import { referenceOf, type InquiryRecord } from '../schemas/inquiry-record.ts';
import { allInquiries, type DayRange } from './inquiries.ts';

/**
 * The staff inbox's CSV exports: the inquiries of a date range, one row each, streamed a batch at a time; every
 * inquiry goes through the background export (inquiry-export.ts), which writes the same rows to a file.
 */

/* ---------- CSV export (staff inbox) ---------- */

const CSV_COLUMNS: [string, (r: InquiryRecord) => string][] = [
  ['Received (UTC)', (r) => r.createdAt],
  ['Reference', (r) => referenceOf(r)],
  ['Id', (r) => r.id],
  ['Form', (r) => (r.kind === 'quote' ? 'Free quote' : r.source === 'home' ? 'Home consultation' : 'Contact')],
  ['Status', (r) => r.status],
  ['Handled at', (r) => r.handledAt ?? ''],
  ['First name', (r) => r.contact.firstName],
  ['Last name', (r) => r.contact.lastName],
  ['E-mail', (r) => r.contact.email],
  ['Phone', (r) => r.contact.phone],
  ['Message', (r) => r.message ?? ''],
  ['State', (r) => r.quote?.state ?? ''],
  ['Preferred contact', (r) => r.quote?.preferredContact ?? ''],
  ['Categories', (r) => r.quote?.categories.map((c) => c.name).join('; ') ?? ''],
  ['Courses', (r) => r.quote?.courses.map((c) => `${c.code} ${c.title}`).join('; ') ?? ''],
  ['Experience', (r) => r.quote?.experience ?? ''],
  ['Goals', (r) => r.quote?.goals ?? ''],
  ['Additional info', (r) => r.quote?.additionalInfo ?? ''],
  ['Consent: share with partner RTO', (r) => consentCell(r.consents?.partnerRto)],
  [
    'Consent: marketing',
    (r) =>
      r.marketingWithdrawn ? `Withdrawn ${r.marketingWithdrawn.at.slice(0, 10)}` : consentCell(r.consents?.marketing),
  ],
  ['Staff e-mail', (r) => r.mail.staff.state],
  ['Visitor e-mail', (r) => r.mail.ack.state],
  ['Consent wording version', (r) => r.consentVersion ?? ''],
];

/** Yes or No; empty for inquiries stored before the forms asked. */
const consentCell = (given: boolean | undefined) => (given === undefined ? '' : given ? 'Yes' : 'No');

/**
 * One CSV cell: a value a spreadsheet would run as a formula (= + - @, or a leading tab or CR) gets a
 * leading apostrophe; then every cell is quoted (RFC 4180, quotes doubled), so no value is ever read
 * as a number, date or anything else but text.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;
export const csvHeader = () => csvLine(CSV_COLUMNS.map(([name]) => name));
export const csvRow = (record: InquiryRecord) => csvLine(CSV_COLUMNS.map(([, get]) => get(record)));

/** The inquiries as CSV (header row, CRLF line ends, as spreadsheets expect). */
export function inquiriesToCsv(records: InquiryRecord[]): string {
  return csvHeader() + records.map(csvRow).join('');
}

/** The first bytes of every export: a byte-order mark so spreadsheets read UTF-8, then the header row. */
export const csvStart = () => `\uFEFF${csvHeader()}`;

/**
 * The inquiries received on the days of `range` as a CSV stream (csvStart, then the rows newest first), read a
 * batch at a time as the client takes it: never all in memory at once, and only the months the range touches.
 */
export function inquiriesCsvStream(range: DayRange): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let batches: AsyncGenerator<InquiryRecord[]> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvStart()));
    },
    async pull(controller) {
      batches ??= allInquiries(200, range);
      const next = await batches.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map(csvRow).join('')));
    },
    async cancel() {
      await batches?.return(undefined);
    },
  });
}
