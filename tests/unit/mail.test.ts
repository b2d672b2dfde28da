import { repositoryCatalogue } from '../../src/catalogue/index';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { composeMail, escapeHtml, greetingName, sanitizeHeader } from '../../src/server/mail-messages';
import { defaultTransport, resendTransport } from '../../src/server/mail-transports';
import { retryDelayMs, MAX_ATTEMPTS } from '../../src/server/mail';
import { startStores } from './helpers/stores';
import type { InquiryRecord } from '../../src/server/inquiries';
import { evidenceFor } from '../../src/catalogue/evidence';
import { storedContact } from './helpers/inquiries';

afterEach(() => vi.unstubAllEnvs());

// Overrides may switch the kind (and carry deliberately hostile values), so they are not checked field by field.
const record = (overrides: Record<string, unknown> = {}): InquiryRecord =>
  storedContact({
    message: 'Hello',
    mail: {
      staff: { state: 'sending', attempts: 0, idempotencyKey: 'inquiry-20250722T101530123Z-0a1b2c3d-staff' },
      ack: { state: 'sending', attempts: 0, idempotencyKey: 'inquiry-20250722T101530123Z-0a1b2c3d-ack' },
    },
    ...overrides,
  } as Partial<InquiryRecord>);

describe('header sanitising', () => {
  it('strips CR, LF and other control characters and collapses the gap', () => {
    expect(sanitizeHeader('Jane\r\nBcc: victim@example.com')).toBe('Jane Bcc: victim@example.com');
    expect(sanitizeHeader('  a\tb\u0000c\u2028d  ')).toBe('a b c d');
  });
  it('caps the length', () => {
    expect(sanitizeHeader('x'.repeat(500), 50)).toHaveLength(50);
  });
  it('never leaves a CR or LF, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(sanitizeHeader(value)).not.toMatch(/[\r\n]/);
      }),
    );
  });
});

describe('HTML escaping', () => {
  it('escapes the five special characters', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;',
    );
  });
  it('leaves no raw < > or quote, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(escapeHtml(value)).not.toMatch(/[<>"']/);
      }),
    );
  });
});

describe('greeting', () => {
  it('uses a first name that looks like one, otherwise "there"', () => {
    expect(greetingName('Mary-Jane')).toBe('Mary-Jane');
    expect(greetingName("Seán O'Neil")).toBe('there');
    expect(greetingName('Visit https://spam.example')).toBe('there');
    expect(greetingName('win$$$ 100')).toBe('there');
  });
});

describe('composed messages', () => {
  it('notify staff at MAIL_TO with the visitor as reply-to, escaped HTML and a text version', () => {
    vi.stubEnv('MAIL_TO', 'inbox@example.com.au');
    vi.stubEnv('MAIL_FROM', 'RPL Pathways <no-reply@example.com.au>');
    const mail = composeMail(
      record({
        message: '<b>bold</b>\nsecond line',
        contact: { firstName: '<img src=x>', lastName: 'Citizen', email: 'jane@example.com', phone: '1' },
      }),
      'staff',
      { catalogue: repositoryCatalogue() },
    );
    expect(mail).toMatchObject({
      to: 'inbox@example.com.au',
      from: 'RPL Pathways <no-reply@example.com.au>',
      replyTo: 'jane@example.com',
    });
    expect(mail.subject).toBe('New contact message from <img src=x> Citizen');
    expect(mail.html).toContain('&lt;b&gt;bold&lt;/b&gt;<br>second line');
    expect(mail.html).toContain('&lt;img src=x&gt; Citizen');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>');
    expect(mail.text).toContain('<b>bold</b>\nsecond line');
    expect(mail.text).toContain('20250722T101530123Z-0a1b2c3d');
  });

  it('keep CR/LF out of every header even if a stored value had them', () => {
    vi.stubEnv('MAIL_TO', 'inbox@example.com.au\r\nBcc: x@example.com');
    const tainted = record({
      contact: {
        firstName: 'A\r\nBcc: x@example.com',
        lastName: 'B\nC',
        email: 'j@example.com\r\nCc: y@example.com',
        phone: '1',
      },
    });
    for (const kind of ['staff', 'ack'] as const) {
      const mail = composeMail(tainted, kind, { catalogue: repositoryCatalogue() });
      for (const header of [mail.subject, mail.to, mail.replyTo ?? '', mail.from]) expect(header).not.toMatch(/[\r\n]/);
    }
  });

  it('name the form in the staff subject', () => {
    expect(composeMail(record({ source: 'home' }), 'staff', { catalogue: repositoryCatalogue() }).subject).toBe(
      'New consultation request from Jane Citizen',
    );
    const quote = record({
      kind: 'quote',
      source: 'quote',
      message: undefined,
      quote: {
        mobileNumber: '',
        preferredContact: '',
        state: 'QLD',
        selectedCategories: ['health-fitness'],
        selectedCourses: ['SIS30321'],
        categories: [{ slug: 'health-fitness', name: 'Health & Fitness' }],
        courses: [
          {
            code: 'SIS30321',
            title: 'Certificate III in Fitness',
            level: 'Certificate III',
            category: 'health-fitness',
          },
        ],
        experience: '',
        goals: '',
        additionalInfo: '',
      },
    });
    const staff = composeMail(quote, 'staff', { catalogue: repositoryCatalogue() });
    expect(staff.subject).toBe('New free quote request from Jane Citizen (QLD)');
    expect(staff.html).toContain('Health &amp; Fitness');
    expect(staff.text).toContain('SIS30321 – Certificate III in Fitness (Certificate III)');
    const ack = composeMail(quote, 'ack', { catalogue: repositoryCatalogue() });
    expect(ack.to).toBe('jane@example.com');
    expect(ack.text).toContain('within 24 hours');
    expect(ack.text).toContain('SIS30321 Certificate III in Fitness');
  });

  it("carry the indicative result and its evidence checklist in the quote acknowledgement, never the visitor's text", () => {
    const quote = record({
      kind: 'quote',
      source: 'quote',
      message: undefined,
      quote: {
        mobileNumber: '',
        preferredContact: '',
        state: 'NSW',
        selectedCategories: ['civil-construction'],
        selectedCourses: [],
        categories: [{ slug: 'civil-construction', name: 'Civil Construction' }],
        courses: [],
        experience: 'Carpenter <b>framing</b> houses, see https://spam.example',
        goals: '',
        additionalInfo: '',
        notSure: true,
        matches: ['CPC30220', 'ZZZ99999'],
      },
    });
    const ack = composeMail(quote, 'ack', { catalogue: repositoryCatalogue() });
    expect(ack.text).toContain('You asked us to suggest qualifications from your experience.');
    expect(ack.text).toContain('YOUR INDICATIVE RESULT');
    expect(ack.text).toMatch(/not an assessment/);
    expect(ack.text).toContain('CPC30220 Certificate III in Carpentry (Certificate III)');
    expect(ack.text).toContain(`  [ ] ${evidenceFor({ code: 'CPC30220', category: 'civil-construction' })[0]}`);
    expect(ack.text).toMatch(/What RPL cannot give you:\n\s+.*white card/i);
    expect(ack.text).not.toContain('ZZZ99999');
    expect(ack.html).toContain('<h2 style="font-size:18px;margin:24px 0 8px">Your indicative result</h2>');
    expect(ack.html).toContain('<li>Photos of framing, formwork and fit-off work, not only one kind of task</li>');
    expect(ack.text + ack.html).not.toContain('spam.example');
    const staff = composeMail(quote, 'staff', { catalogue: repositoryCatalogue() });
    expect(staff.text).toContain('Indicative result shown:\nCPC30220, ZZZ99999');
    expect(staff.text).toContain('Courses:\nNone chosen');
  });

  it('acknowledge the visitor without echoing the message they wrote', () => {
    const ack = composeMail(record({ message: 'Buy cheap pills at https://spam.example' }), 'ack', {
      catalogue: repositoryCatalogue(),
    });
    expect(ack).toMatchObject({
      to: 'jane@example.com',
      replyTo: 'staff@localhost',
      subject: 'We received your message – RPL Pathways',
    });
    expect(ack.text).toContain('Hi Jane,');
    expect(ack.text + ack.html).not.toContain('spam.example');
  });
});

describe('retry schedule', () => {
  it('doubles from 10 minutes and stays inside the 24-hour idempotency window', () => {
    expect([1, 2, 3, 4].map(retryDelayMs).map((ms) => ms / 60_000)).toEqual([10, 20, 40, 80]);
    const total = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1)).reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(24 * 3600_000);
  });
});

describe('finding 7: the acknowledgement e-mail carries visitor text to any address', () => {
  const quoteRecord = (firstName: string) =>
    record({
      kind: 'quote',
      source: 'quote',
      message: undefined,
      contact: { firstName, lastName: 'Visit evil.example', email: 'victim@example.com', phone: '1' },
      quote: {
        mobileNumber: '',
        preferredContact: 'Call me at evil.example',
        state: 'NSW',
        selectedCategories: ['health-fitness'],
        selectedCourses: ['SIS30321'],
        categories: [{ slug: 'health-fitness', name: 'Health & Fitness' }],
        courses: [
          {
            code: 'SIS30321',
            title: 'Certificate III in Fitness',
            level: 'Certificate III',
            category: 'health-fitness',
          },
        ],
        experience: 'Free money at evil.example',
        goals: 'evil.example',
        additionalInfo: 'evil.example',
      },
    });

  it('greets by a single first name or "there", never by a sentence', () => {
    expect(greetingName('Claim your prize at evil.example now')).toBe('there');
    expect(greetingName('evil.example')).toBe('there');
    expect(greetingName('Jane Mary')).toBe('there');
    expect(greetingName('J.')).toBe('there');
    expect(greetingName('Agent007')).toBe('there');
    expect(greetingName('x'.repeat(31))).toBe('there');
    expect(greetingName("-'")).toBe('there');
    expect(greetingName('Jane')).toBe('Jane');
    expect(greetingName(' Jane ')).toBe('Jane');
    expect(greetingName("O'Neil")).toBe("O'Neil");
    expect(greetingName('Mary-Jane')).toBe('Mary-Jane');
    expect(greetingName('Seán')).toBe('Seán');
  });

  it('any first name: the greeting is one word of letters, apostrophes and hyphens, or "there"', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (value) => {
        const name = greetingName(value);
        expect(name === 'there' || /^\p{L}[\p{L}\p{M}'’-]{0,29}$/u.test(name)).toBe(true);
      }),
    );
  });

  it('neither acknowledgement carries the visitor-written text', () => {
    const contact = composeMail(
      record({
        contact: {
          firstName: 'Claim your prize at evil.example now',
          lastName: 'evil.example',
          email: 'victim@example.com',
          phone: '1',
        },
        message: 'evil.example',
      }),
      'ack',
      { catalogue: repositoryCatalogue() },
    );
    const quote = composeMail(quoteRecord('Claim your prize at evil.example now'), 'ack', {
      catalogue: repositoryCatalogue(),
    });
    for (const mail of [contact, quote]) {
      expect(mail.text).toContain('Hi there,');
      expect(mail.subject + mail.text + mail.html).not.toMatch(/evil|prize/);
    }
    expect(quote.text).toContain('SIS30321 Certificate III in Fitness');
  });
});

describe('finding 5: without RESEND_API_KEY the log carries no personal data', () => {
  const visitor = () =>
    record({
      message: 'My private words about my employer',
      contact: {
        firstName: 'Jane',
        lastName: 'Secretsurname',
        email: 'jane.visitor@example.org',
        phone: '0412 999 888',
      },
    });
  const logged = (spies: ReturnType<typeof vi.spyOn>[]) =>
    spies.flatMap((spy) => spy.mock.calls.map((call: unknown[]) => call.map(String).join(' '))).join('\n');

  it('finding 5: the outbox logs the mail kind and id, never the address, name or text', async () => {
    const blobs = await startStores();
    const spies = (['log', 'info', 'warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(() => {}),
    );
    try {
      vi.stubEnv('RESEND_API_KEY', '');
      vi.stubEnv('MAIL_TO', 'inbox@example.com.au');
      const transport = defaultTransport();
      expect(transport.name).toBe('outbox');
      const inquiry = visitor();
      for (const kind of ['staff', 'ack'] as const)
        await transport.send(
          composeMail(inquiry, kind, { catalogue: repositoryCatalogue() }),
          inquiry.mail[kind].idempotencyKey,
        );
      const text = logged(spies);
      expect(text).toContain(`staff mail ${inquiry.mail.staff.idempotencyKey}`);
      expect(text).toContain(`ack mail ${inquiry.mail.ack.idempotencyKey}`);
      for (const secret of ['jane.visitor@example.org', 'Secretsurname', 'private words', 'inbox@example.com.au', '@'])
        expect(text).not.toContain(secret);
    } finally {
      for (const spy of spies) spy.mockRestore();
      await blobs.stop();
    }
  });

  it('finding 5: a failed send is logged and kept without the address the provider quoted back', async () => {
    const transport = resendTransport('re_test', {
      emails: {
        send: async (payload) => ({
          data: null,
          error: { name: 'validation_error', statusCode: 422, message: `Invalid \`to\` field: ${payload.to}` },
        }),
      },
    });
    const inquiry = visitor();
    const failure = await transport
      .send(composeMail(inquiry, 'ack', { catalogue: repositoryCatalogue() }), 'key')
      .catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('validation_error 422 Invalid `to` field');
    expect((failure as Error).message).not.toContain('jane.visitor@example.org');
  });
});
