import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import fc from 'fast-check';
import { CONTACT_TIMES, ContactSchema, QuoteSchema, STATES } from '../../src/schemas/inquiry';
import { issuesToFieldErrors } from '../../src/schemas/field-errors';
import { contactForm, quoteForm } from './helpers/inquiries';

const contact = contactForm({ email: 'jane@example.com.au', message: 'I have 10 years in civil construction.' });
const quote = quoteForm({ phone: '+61 2 5550 1234', state: 'NSW' });
const errorsOf = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? {} : issuesToFieldErrors(result.issues, 1);
};

describe('contact schema (all five fields required)', () => {
  it('accepts a complete message, trims it and defaults the source to the contact page', () => {
    const parsed = v.parse(ContactSchema, { ...contact, firstName: '  Jane ', extra: 'dropped' });
    expect(parsed).toMatchObject({ ...contact, source: 'contact' });
    expect(parsed).not.toHaveProperty('extra');
  });

  it('names every missing or blank field', () => {
    expect(errorsOf(ContactSchema, {})).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'E-mail is required',
      phone: 'Phone is required',
      message: 'Message is required',
    });
    expect(errorsOf(ContactSchema, { ...contact, firstName: '   ', message: ' \n ' })).toEqual({
      firstName: 'First name is required',
      message: 'Message is required',
    });
  });

  it.each(['jane', 'jane@', 'jane@example', 'jane example@x.com', 'a@b.c'])('refuses the e-mail %j', (email) => {
    expect(errorsOf(ContactSchema, { ...contact, email })).toEqual({ email: 'Enter a valid e-mail address' });
  });

  it('refuses CR/LF anywhere in header-bound fields (header injection)', () => {
    expect(errorsOf(ContactSchema, { ...contact, email: 'jane@example.com\r\nBcc: victim@example.com' }).email).toBe(
      'E-mail address cannot contain line breaks',
    );
    expect(errorsOf(ContactSchema, { ...contact, email: 'jane@example.com\n' }).email).toBe(
      'E-mail address cannot contain line breaks',
    );
    expect(errorsOf(ContactSchema, { ...contact, firstName: 'Jane\r\nSubject: hi' }).firstName).toBe(
      'First name cannot contain line breaks',
    );
    expect(errorsOf(ContactSchema, { ...contact, lastName: 'X\nY' }).lastName).toBe(
      'Last name cannot contain line breaks',
    );
    expect(errorsOf(ContactSchema, { ...contact, phone: '0412\r\n345' }).phone).toBe(
      'Phone cannot contain line breaks',
    );
  });

  it('keeps line breaks in the message body', () => {
    expect(v.parse(ContactSchema, { ...contact, message: 'Line one\r\nLine two' }).message).toBe(
      'Line one\r\nLine two',
    );
  });

  it('limits lengths', () => {
    expect(errorsOf(ContactSchema, { ...contact, message: 'x'.repeat(5001) })).toEqual({
      message: 'Message must be at most 5000 characters',
    });
    expect(errorsOf(ContactSchema, { ...contact, firstName: 'x'.repeat(61) })).toEqual({
      firstName: 'First name must be at most 60 characters',
    });
  });

  it('checks phone numbers loosely: digits with spaces, +, brackets, dots and dashes', () => {
    for (const phone of ['0412 345 678', '(02) 5550 1234', '+61-412-345-678', '0412.345.678'])
      expect(errorsOf(ContactSchema, { ...contact, phone })).toEqual({});
    for (const phone of ['call me', '12345', '0412 345 678 ext 9 and more digits 123456'])
      expect(errorsOf(ContactSchema, { ...contact, phone }).phone).toMatch(/phone number|at most/);
  });

  it('knows the home consultation form as a source and nothing else', () => {
    expect(v.parse(ContactSchema, { ...contact, source: 'home' }).source).toBe('home');
    expect(errorsOf(ContactSchema, { ...contact, source: 'elsewhere' })).toEqual({ source: 'Unknown form' });
  });

  it('never accepts a line break in the e-mail, whatever else the value holds', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.constantFrom('\r', '\n', '\r\n'), (before, after, lineBreak) => {
        const result = v.safeParse(ContactSchema, { ...contact, email: `${before}${lineBreak}${after}` });
        expect(result.success).toBe(false);
      }),
    );
  });
});

describe('quote schema', () => {
  it('accepts a complete request and fills the optional fields', () => {
    const {
      experience: _e,
      goals: _g,
      additionalInfo: _a,
      mobileNumber: _m,
      preferredContact: _p,
      ...required
    } = quote;
    expect(v.parse(QuoteSchema, required)).toMatchObject({
      experience: '',
      goals: '',
      additionalInfo: '',
      mobileNumber: '',
      preferredContact: '',
    });
  });

  it('offers the eight states and four contact times', () => {
    expect(STATES).toEqual(['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT']);
    expect(CONTACT_TIMES).toEqual(['Morning (8AM-12PM)', 'Afternoon (12PM-5PM)', 'Evening (5PM-8PM)', 'Any time']);
    for (const time of CONTACT_TIMES) expect(errorsOf(QuoteSchema, { ...quote, preferredContact: time })).toEqual({});
    expect(errorsOf(QuoteSchema, { ...quote, preferredContact: 'Midnight' }).preferredContact).toMatch(
      /Preferred contact time/,
    );
  });

  it('needs a state, a category, a course and the terms', () => {
    expect(
      errorsOf(QuoteSchema, { ...quote, state: '', selectedCategories: [], selectedCourses: [], acceptedTerms: false }),
    ).toEqual({
      state: 'Choose your state',
      selectedCategories: "Choose at least one category, or tick “My industry isn't listed”",
      selectedCourses: 'Choose at least one course',
      acceptedTerms: 'Please agree to the terms and conditions',
    });
  });

  it('refuses malformed or repeated codes and slugs', () => {
    expect(errorsOf(QuoteSchema, { ...quote, selectedCategories: ['Civil Construction'] }).selectedCategories).toMatch(
      /slug/,
    );
    expect(errorsOf(QuoteSchema, { ...quote, selectedCourses: ['<script>'] }).selectedCourses).toMatch(/Course codes/);
    expect(errorsOf(QuoteSchema, { ...quote, selectedCourses: ['RII30820', 'RII30820'] }).selectedCourses).toBe(
      'Courses must not repeat',
    );
  });

  it('normalises course codes to capitals', () => {
    expect(v.parse(QuoteSchema, { ...quote, selectedCourses: [' rii30820 '] }).selectedCourses).toEqual(['RII30820']);
  });
});

describe('missing quote fields', () => {
  it('get the same messages as blank ones', () => {
    expect(errorsOf(QuoteSchema, {})).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'E-mail is required',
      phone: 'Phone is required',
      state: 'Choose your state',
      selectedCategories: "Choose at least one category, or tick “My industry isn't listed”",
      selectedCourses: 'Choose at least one course',
      acceptedTerms: 'Please agree to the terms and conditions',
    });
  });
});
