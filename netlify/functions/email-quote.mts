import type { Config, Context } from '@netlify/functions';
import { methodNotAllowed } from '../../src/server/http';
import { acceptInquiry, parseFormSubmission, refuse } from '../../src/server/form-request';
import { ELAPSED_FIELD, HONEYPOT_FIELD, QuoteSchema } from '../../src/schemas/inquiry';
import { loadCatalogue } from '../../src/server/catalogue';
import { consentsFrom, updateInquiry } from '../../src/server/inquiries';
import { feesFor, matchCodes, resultOfQuote } from '../../src/server/quote-result';
import { readSettings } from '../../src/server/settings';
import { issueApplicantLink } from '../../src/server/applicant-links';

/**
 * POST /api/email/quote (docs/routes.md): the five-step free quote. The chosen categories and
 * courses must exist in the catalogue; the inquiry keeps their names and titles as they were. The
 * answer also carries an indicative result (best matches, evidence checklist, what RPL cannot give).
 */
export default async (request: Request, context: Context) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const parsed = await parseFormSubmission(request, QuoteSchema);
  if (!parsed.ok) return parsed.response;
  const quote = parsed.data;
  // The catalogue as published now, so a qualification staff just added can be asked about.
  // The same catalogue checks the choice and gives the result, so a course it accepts is never left out.
  const { catalogue } = await loadCatalogue();
  const { courses, findCategory } = catalogue.api;
  const courseByCode = new Map(courses.map((course) => [course.code, course]));

  const unknownCategory = quote.selectedCategories.find((slug) => !findCategory(slug));
  if (unknownCategory) {
    const message = `Unknown category: ${unknownCategory}`;
    return refuse(400, message, [{ field: 'selectedCategories', message }]);
  }
  const unknownCourse = quote.selectedCourses.find((code) => !courseByCode.has(code));
  if (unknownCourse) {
    const message = `Unknown course: ${unknownCourse}`;
    return refuse(400, message, [{ field: 'selectedCourses', message }]);
  }

  // The quote is stored whole (only the two abuse checks, already passed, are left out), so every field
  // of QuoteSchema reaches the inbox and the staff e-mail; the chosen names are kept as they are today.
  const { [HONEYPOT_FIELD]: _trap, [ELAPSED_FIELD]: _elapsed, ...submission } = quote;
  const { firstName, lastName, email, phone } = submission;
  // The private link to the applicant page, offered once on the result screen (best-effort, after storing).
  let applicantLink: string | null = null;
  return acceptInquiry(
    {
      kind: 'quote',
      source: 'quote',
      contact: { firstName, lastName, email, phone },
      quote: {
        ...submission,
        categories: quote.selectedCategories.map((slug) => ({ slug, name: findCategory(slug)!.name })),
        courses: quote.selectedCourses.map((code) => {
          const course = courseByCode.get(code)!;
          return { code, title: course.title, level: course.level, category: course.category.slug };
        }),
      },
      consents: consentsFrom(quote),
    },
    context,
    'Thank you for your quote request. We will reply within 24 hours.',
    {
      // Only once the quote is stored: the indicative matches, kept on the record for the e-mail and the inbox.
      // If matching fails, the lead is kept all the same and simply has no suggestions.
      enrich: async (record) => {
        // The applicant page's link first, so a failure in matching cannot cost it.
        applicantLink = await issueApplicantLink(record.id).catch((cause) => {
          console.error(`[inquiries] inquiry ${record.id} is stored; its applicant link failed:`, String(cause));
          return null;
        });
        const matches = matchCodes(catalogue, quote);
        // The fee shown with each, as staff have set it today (kept, so the inbox shows what the visitor read).
        const fees = await readSettings().then(
          (settings) => feesFor(catalogue, matches, settings),
          () => [],
        );
        return updateInquiry(record.id, (current) =>
          current.quote ? { ...current, quote: { ...current.quote, matches, fees } } : null,
        );
      },
      // The indicative result the visitor sees at once (the same one the acknowledgement e-mail carries),
      // and the applicant page's link when one could be made.
      extra: (record) => ({
        result: resultOfQuote(catalogue, record.quote),
        ...(applicantLink ? { applicantLink } : {}),
      }),
    },
  );
};

export const config: Config = {
  path: '/api/email/quote',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
