// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QuoteFields } from '../../src/admin/inbox/QuoteFields';
import { QUOTE_LABELLED_FIELDS, QUOTE_STEP_FIELDS } from '../../src/schemas/inquiry';
import { issuesToFieldErrors } from '../../src/schemas/field-errors';
import { storedQuote } from './helpers/inquiries';

afterEach(cleanup);

const stored = storedQuote({
  state: 'WA',
  experience: 'Excavator operator\nsince 2012',
  additionalInfo: 'Call after 3pm',
});

const shown = () =>
  Object.fromEntries(
    [...document.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
  );

describe('a stored quote in the inbox', () => {
  it('lists the answers under their labels, with the chosen names, and leaves out what was left blank', () => {
    render(<QuoteFields quote={stored} />);
    expect(shown()).toEqual({
      Categories: 'Civil Construction',
      Courses: 'RII30820 – Certificate III in Civil Construction Plant Operations (Certificate III)',
      Experience: 'Excavator operator\nsince 2012',
      'Preferred contact time': 'Any time',
      State: 'WA',
      'Additional information': 'Call after 3pm',
    });
    expect(screen.queryByText('Goals')).toBeNull();
  });

  it('says when the visitor asked for suggestions instead of choosing', () => {
    const unsure = { ...stored, selectedCourses: [], courses: [], notSure: true };
    render(<QuoteFields quote={unsure} />);
    expect(shown()).toMatchObject({
      Courses: 'None chosen',
      'Not sure': 'Asked for suggestions from their experience',
    });
  });

  it('leaves out a field an older record was stored without', () => {
    const { state: _state, ...older } = stored;
    render(<QuoteFields quote={older} />);
    expect(shown()).not.toHaveProperty('State');
    expect(QUOTE_LABELLED_FIELDS.map((f) => f.label)).toContain('State');
  });
});

describe('the quote schema describes its own steps', () => {
  it('names the fields each wizard step checks', () => {
    expect(QUOTE_STEP_FIELDS[1]).toEqual(['firstName', 'lastName', 'email', 'phone']);
    expect(QUOTE_STEP_FIELDS[2]).toEqual(expect.arrayContaining(['selectedCategories']));
    expect(QUOTE_STEP_FIELDS[3]).toEqual(expect.arrayContaining(['selectedCourses', 'notSure', 'experience', 'goals']));
    expect(QUOTE_STEP_FIELDS[4]).toEqual(expect.arrayContaining(['preferredContact', 'state', 'additionalInfo']));
    expect(QUOTE_STEP_FIELDS[5]).toEqual(['acceptedTerms', 'consentPartnerRto', 'consentMarketing']);
  });

  it('asks for every field the visitor fills in on exactly one step', () => {
    const asked = Object.values(QUOTE_STEP_FIELDS).flat();
    expect(new Set(asked).size).toBe(asked.length);
    for (const { field } of QUOTE_LABELLED_FIELDS) expect(asked).toContain(field);
  });
});

describe('one issue-to-field-error mapper', () => {
  const issue = (keys: (string | number)[], message: string) =>
    ({
      kind: 'validation',
      type: 'check',
      input: null,
      expected: null,
      received: 'x',
      message,
      path: keys.map((key) => ({ type: 'object', origin: 'value', input: {}, key, value: null })),
    }) as never;

  it('keys nested problems by their dot path, first message per field', () => {
    expect(
      issuesToFieldErrors([
        issue(['contact', 'phone'], 'Phone is required'),
        issue(['contact', 'phone'], 'second'),
        issue(['email'], 'Enter a valid e-mail address'),
      ]),
    ).toEqual({ 'contact.phone': 'Phone is required', email: 'Enter a valid e-mail address' });
  });

  it('puts a problem with one list item next to the list when cut to the top level', () => {
    expect(issuesToFieldErrors([issue(['selectedCourses', 2], 'Enter a valid course code')], 1)).toEqual({
      selectedCourses: 'Enter a valid course code',
    });
  });
});
