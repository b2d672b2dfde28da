// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import QuoteWizard, { QUOTE_ERROR } from '../../src/islands/quote/QuoteWizard';
import {
  STORAGE_KEY,
  canContinue,
  coursesFor,
  emptyDraft,
  loadProgress,
  saveProgress,
  toggleCategory,
  type QuoteCourse,
} from '../../src/islands/quote/steps';

const categories = [
  { slug: 'civil-construction', name: 'Civil Construction' },
  { slug: 'health-fitness', name: 'Health & Fitness' },
];
const courses: QuoteCourse[] = [
  {
    code: 'RII30820',
    title: 'Certificate III in Civil Construction Plant Operations',
    level: 'Certificate III',
    category: 'civil-construction',
  },
  { code: 'RII50920', title: 'Diploma of Civil Construction Design', level: 'Diploma', category: 'civil-construction' },
  { code: 'SIS30321', title: 'Certificate III in Fitness', level: 'Certificate III', category: 'health-fitness' },
];

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('step rules', () => {
  const full = {
    ...emptyDraft(),
    firstName: 'A',
    lastName: 'B',
    email: 'a@b.co',
    phone: '0412345678',
    selectedCategories: ['health-fitness'],
    selectedCourses: ['SIS30321'],
    state: 'WA',
    acceptedTerms: true,
  };

  it('step 1 needs first name, last name, e-mail and phone (not blank)', () => {
    expect(canContinue(1, full)).toBe(true);
    for (const field of ['firstName', 'lastName', 'email', 'phone'] as const) {
      expect(canContinue(1, { ...full, [field]: '  ' })).toBe(false);
    }
  });
  it('steps 2-5 need a category, a course, a state and the terms', () => {
    expect([2, 3, 4, 5].map((step) => canContinue(step as 2, full))).toEqual([true, true, true, true]);
    expect(canContinue(2, { ...full, selectedCategories: [] })).toBe(false);
    expect(canContinue(3, { ...full, selectedCourses: [] })).toBe(false);
    expect(canContinue(4, { ...full, state: '' })).toBe(false);
    expect(canContinue(5, { ...full, acceptedTerms: false })).toBe(false);
  });
  it('offers the courses of the chosen categories, or all when none is chosen', () => {
    expect(coursesFor(courses, ['health-fitness']).map((c) => c.code)).toEqual(['SIS30321']);
    expect(coursesFor(courses, [])).toHaveLength(3);
  });
  it('drops the courses of a category that is unticked', () => {
    const draft = {
      ...full,
      selectedCategories: ['civil-construction', 'health-fitness'],
      selectedCourses: ['RII30820', 'SIS30321'],
    };
    expect(toggleCategory(draft, 'civil-construction', courses)).toMatchObject({
      selectedCategories: ['health-fitness'],
      selectedCourses: ['SIS30321'],
    });
  });
});

describe('saved progress', () => {
  it('round-trips without the terms tick', () => {
    const draft = { ...emptyDraft(), firstName: 'Sam', selectedCategories: ['health-fitness'], acceptedTerms: true };
    saveProgress(sessionStorage, { step: 1, draft });
    expect(loadProgress(sessionStorage, categories, courses)).toEqual({
      step: 1,
      draft: { ...draft, acceptedTerms: false },
    });
  });

  it('trusts nothing it reads back', () => {
    sessionStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({
        version: 1,
        step: 4,
        draft: {
          firstName: 'Sam',
          lastName: 'Lee',
          email: 'sam@example.com',
          phone: '0412345678',
          state: 'Atlantis',
          preferredContact: 'Never',
          selectedCategories: ['health-fitness', 'made-up', 42],
          selectedCourses: ['SIS30321', 'RII30820', 'NOPE1'],
          evil: '<script>',
        },
      }),
    );
    const loaded = loadProgress(sessionStorage, categories, courses)!;
    expect(loaded.draft).toMatchObject({
      state: '',
      preferredContact: '',
      selectedCategories: ['health-fitness'],
      selectedCourses: ['SIS30321'],
    });
    expect(loaded.draft).not.toHaveProperty('evil');
    expect(loaded.step).toBe(4);
  });

  it('goes back to the first step that is not complete', () => {
    sessionStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({
        version: 1,
        step: 5,
        draft: { firstName: 'Sam', lastName: 'Lee', email: 'sam@example.com', phone: '1', selectedCategories: [] },
      }),
    );
    expect(loadProgress(sessionStorage, categories, courses)?.step).toBe(2);
  });

  it('ignores broken or foreign data', () => {
    sessionStorage.setItem(STORAGE_KEY, '{not json');
    expect(loadProgress(sessionStorage, categories, courses)).toBeNull();
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ version: 99, step: 3, draft: {} }));
    expect(loadProgress(sessionStorage, categories, courses)).toBeNull();
  });
});

const next = () => screen.getByRole('button', { name: 'Next' });
const heading = () => screen.getByRole('heading', { level: 2 });
const currentStep = () => document.querySelector('[aria-current="step"]')?.textContent;

function fillStep1(email = 'sam@example.com') {
  fireEvent.change(screen.getByLabelText(/First name/), { target: { value: 'Sam' } });
  fireEvent.change(screen.getByLabelText(/Last name/), { target: { value: 'Lee' } });
  fireEvent.change(screen.getByLabelText(/E-mail/), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/Phone/), { target: { value: '0412 345 678' } });
}

function toReview() {
  fillStep1();
  fireEvent.click(next());
  fireEvent.click(screen.getByLabelText('Civil Construction'));
  fireEvent.click(next());
  fireEvent.click(screen.getByLabelText(/Certificate III in Civil Construction Plant Operations/));
  fireEvent.click(next());
  fireEvent.change(screen.getByLabelText(/State or territory/), { target: { value: 'NSW' } });
  fireEvent.click(next());
}

describe('quote wizard', () => {
  it('keeps Next disabled until step 1 is filled in, and says why', () => {
    render(<QuoteWizard categories={categories} courses={courses} />);
    expect(heading().textContent).toBe('Personal Info');
    expect(currentStep()).toContain('Personal Info');
    expect(next()).toHaveProperty('disabled', true);
    expect(document.getElementById(next().getAttribute('aria-describedby')!)?.textContent).toMatch(
      /first name, last name, e-mail and phone/,
    );
    fillStep1();
    expect(next()).toHaveProperty('disabled', false);
  });

  it('checks the e-mail before leaving step 1', () => {
    render(<QuoteWizard categories={categories} courses={courses} />);
    fillStep1('not-an-email');
    fireEvent.click(next());
    expect(heading().textContent).toBe('Personal Info');
    expect(screen.getByText('Enter a valid e-mail address')).toBeTruthy();
    expect(screen.getByLabelText(/E-mail/).getAttribute('aria-invalid')).toBe('true');
  });

  it('walks through the steps: indicators, focus on each heading, courses of the chosen category only', () => {
    render(<QuoteWizard categories={categories} courses={courses} />);
    fillStep1();
    fireEvent.click(next());
    expect(heading().textContent).toBe('Categories');
    expect(document.activeElement).toBe(heading());
    expect(document.querySelectorAll('.quote-progress__step.is-active')).toHaveLength(2);
    expect(currentStep()).toContain('Categories');
    expect(next()).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByLabelText('Health & Fitness'));
    fireEvent.click(next());
    expect(heading().textContent).toBe('Courses');
    expect(screen.queryByLabelText(/Civil Construction Plant Operations/)).toBeNull();
    expect(next()).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByLabelText(/Certificate III in Fitness/));
    fireEvent.click(next());

    expect(heading().textContent).toBe('Contact & Location');
    expect(next()).toHaveProperty('disabled', true);
    const times = within(screen.getByLabelText(/Best time to contact you/))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(times).toEqual([
      'No preference',
      'Morning (8AM-12PM)',
      'Afternoon (12PM-5PM)',
      'Evening (5PM-8PM)',
      'Any time',
    ]);
    const states = within(screen.getByLabelText(/State or territory/))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(states).toEqual(['Choose your state', 'NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT']);
    fireEvent.change(screen.getByLabelText(/State or territory/), { target: { value: 'QLD' } });
    fireEvent.click(next());
    expect(heading().textContent).toBe('Review & Submit');
    expect(document.querySelectorAll('.quote-progress__step.is-active')).toHaveLength(5);
  });

  it('goes back with Previous', () => {
    render(<QuoteWizard categories={categories} courses={courses} />);
    fillStep1();
    fireEvent.click(next());
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(heading().textContent).toBe('Personal Info');
    expect((screen.getByLabelText(/First name/) as HTMLInputElement).value).toBe('Sam');
  });

  it('reviews everything with Edit links to steps 1-4 and needs the terms ticked', () => {
    render(<QuoteWizard categories={categories} courses={courses} />);
    toReview();
    const submit = screen.getByRole('button', { name: 'Submit Request' });
    expect(submit).toHaveProperty('disabled', true);
    expect(screen.getByText('Sam Lee')).toBeTruthy();
    expect(screen.getByRole('link', { name: /terms and conditions/ }).getAttribute('href')).toBe('/terms-conditions');
    fireEvent.click(screen.getByLabelText(/I agree to be bound by the/));
    expect(submit).toHaveProperty('disabled', false);

    const edits = screen.getAllByRole('button', { name: /^Edit / });
    expect(edits.map((b) => b.textContent)).toEqual([
      'Edit Personal Info',
      'Edit Categories',
      'Edit Courses',
      'Edit Contact & Location',
    ]);
    fireEvent.click(edits[2]);
    expect(heading().textContent).toBe('Courses');
    expect(document.activeElement).toBe(heading());
  });

  it('submits, then shows the thank-you screen and forgets the saved progress', async () => {
    let answer!: (r: Response) => void;
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetch);
    render(<QuoteWizard categories={categories} courses={courses} />);
    toReview();
    expect(sessionStorage.getItem(STORAGE_KEY)).toContain('Sam');
    fireEvent.click(screen.getByLabelText(/I agree to be bound by the/));
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(screen.getByRole('button', { name: 'Submitting...' })).toHaveProperty('disabled', true);

    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/email/quote');
    expect(JSON.parse(init.body as string)).toMatchObject({
      firstName: 'Sam',
      lastName: 'Lee',
      email: 'sam@example.com',
      phone: '0412 345 678',
      mobileNumber: '',
      preferredContact: '',
      state: 'NSW',
      selectedCategories: ['civil-construction'],
      selectedCourses: ['RII30820'],
      acceptedTerms: true,
      website: '',
      elapsedMs: expect.any(Number),
    });

    const link = 'http://localhost:8888/apply#token=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
    await act(async () =>
      answer(
        new Response(JSON.stringify({ success: true, id: 'x', reference: 'RPL-7KQ3M9', applicantLink: link }), {
          status: 200,
        }),
      ),
    );
    const thanks = screen.getByRole('heading', { level: 2, name: 'Thank you, Sam!' });
    expect(document.activeElement).toBe(thanks);
    expect(screen.getByText(/within 24 hours/)).toBeTruthy();
    // A thank-you with the reference at the top and the ways on, not a dead end.
    expect(screen.getByTestId('quote-reference').textContent).toBe('RPL-7KQ3M9');
    expect(screen.getByRole('link', { name: 'Upload your evidence' }).getAttribute('href')).toBe(link);
    expect(document.title).toBe('Thank you – reference RPL-7KQ3M9');
    expect(sessionStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it('the confirmation says the written quote names the RTO, or names the delivering RTO from the saved settings', async () => {
    const rto = {
      legalName: 'Example Skills Institute Pty Ltd',
      code: '45678',
      registerUrl: 'https://training.gov.au/Organisation/Details/45678',
      categories: ['civil-construction'],
      courses: [],
    };
    const fetch = vi.fn(async (url: string) =>
      url === '/api/email/quote'
        ? new Response(JSON.stringify({ success: true, id: 'x' }), { status: 200 })
        : new Response(JSON.stringify({ partnerRtos: [rto] }), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetch);
    render(<QuoteWizard categories={categories} courses={courses} />);
    toReview();
    fireEvent.click(screen.getByLabelText(/I agree to be bound by the/));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Submit Request' })));
    expect(heading().textContent).toBe('Thank you, Sam!');
    await act(async () => undefined);
    const link = screen.getByRole('link', { name: 'Example Skills Institute Pty Ltd (RTO 45678)' });
    expect(link.getAttribute('href')).toBe(rto.registerUrl);
    expect(fetch).toHaveBeenCalledWith('/api/public/site-settings', expect.anything());
  });

  it('without a partner RTO the confirmation says the written quote names it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/email/quote'
          ? new Response(JSON.stringify({ success: true, id: 'x' }), { status: 200 })
          : new Response('{}', { status: 503 }),
      ),
    );
    render(<QuoteWizard categories={categories} courses={courses} partnerRtos={[]} />);
    toReview();
    fireEvent.click(screen.getByLabelText(/I agree to be bound by the/));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Submit Request' })));
    await act(async () => undefined);
    expect(screen.getByTestId('quote-rto').textContent).toContain('named in your written quote');
  });

  it('shows the quote error and stays on the review when sending fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () => new Response(JSON.stringify({ success: false, message: 'Unknown course: X' }), { status: 400 }),
      ),
    );
    render(<QuoteWizard categories={categories} courses={courses} />);
    toReview();
    fireEvent.click(screen.getByLabelText(/I agree to be bound by the/));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Submit Request' })));
    expect(screen.getByRole('alert').textContent).toContain(QUOTE_ERROR);
    expect(screen.getByRole('alert').textContent).toContain('Unknown course: X');
    expect(heading().textContent).toBe('Review & Submit');
  });

  it('picks up where the visitor was after a reload in the same tab', () => {
    render(<QuoteWizard categories={categories} courses={courses} />);
    fillStep1();
    fireEvent.click(next());
    fireEvent.click(screen.getByLabelText('Health & Fitness'));
    fireEvent.click(next());
    cleanup();

    render(<QuoteWizard categories={categories} courses={courses} />);
    expect(heading().textContent).toBe('Courses');
    expect(screen.getByLabelText(/Certificate III in Fitness/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect((screen.getByLabelText(/Last name/) as HTMLInputElement).value).toBe('Lee');
  });
});

describe('before hydration', () => {
  it('keeps what was typed into the server-rendered step 1', async () => {
    const { renderToString } = await import('react-dom/server');
    const { hydrateRoot } = await import('react-dom/client');
    const container = document.createElement('div');
    container.innerHTML = renderToString(<QuoteWizard categories={categories} courses={courses} />);
    document.body.append(container);
    const type = (name: string, value: string) =>
      ((container.querySelector(`[name="${name}"]`) as HTMLInputElement).value = value);
    type('firstName', 'Kim');
    type('lastName', 'Tran');
    type('email', 'kim@example.com');
    type('phone', '0412 345 678');
    await act(async () => {
      hydrateRoot(container, <QuoteWizard categories={categories} courses={courses} />);
    });
    expect((container.querySelector('.quote__next') as HTMLButtonElement).disabled).toBe(false);
    expect((container.querySelector('[name="firstName"]') as HTMLInputElement).value).toBe('Kim');
    container.remove();
  });
});

describe('arriving with ?course= or ?search=, "Not sure" and the indicative result', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('finding 3: ?course= skips to step 4 with the course kept, steps 2 and 3 done and editable from the review', () => {
    window.history.replaceState(null, '', '/free-quote?course=sis30321');
    render(<QuoteWizard categories={categories} courses={courses} />);
    expect(document.querySelector('.quote__preselected')?.textContent).toMatch(/Certificate III in Fitness.*SIS30321/);
    expect(window.location.search).toBe('');
    const completed = () =>
      [...document.querySelectorAll('.quote-progress__step.is-done')].map((li) => li.textContent?.trim());
    // Before step 1 is even filled in, the progress shows what the course page already answered.
    expect(completed()).toEqual(['Step 2: Categories (completed)', 'Step 3: Courses (completed)']);
    fillStep1();
    fireEvent.click(next());
    expect(heading().textContent).toBe('Contact & Location');
    expect(currentStep()).toMatch(/Step 4/);
    expect(completed()).toHaveLength(3);
    fireEvent.change(screen.getByLabelText(/State or territory/), { target: { value: 'WA' } });
    fireEvent.click(next());
    const review = document.querySelector('.review')!;
    expect(review.textContent).toContain('Health & Fitness');
    expect(review.textContent).toContain('SIS30321');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Courses' }));
    expect(heading().textContent).toBe('Courses');
    expect((screen.getByLabelText(/Certificate III in Fitness/) as HTMLInputElement).checked).toBe(true);
  });

  it("finding 3: ?course= opens straight at step 4 when the visitor's details are already in", () => {
    saveProgress(sessionStorage, {
      step: 1,
      draft: { ...emptyDraft(), firstName: 'Sam', lastName: 'Lee', email: 'sam@example.com', phone: '0412345678' },
    });
    window.history.replaceState(null, '', '/free-quote?course=RII30820');
    render(<QuoteWizard categories={categories} courses={courses} />);
    expect(heading().textContent).toBe('Contact & Location');
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect((screen.getByLabelText(/Plant Operations/) as HTMLInputElement).checked).toBe(true);
  });

  it('finding 3: "My industry isn\'t listed" goes on without a category once the work is described, and submits', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ success: true, id: 'ref-1', result: [] }), { status: 200 })),
    );
    render(<QuoteWizard categories={categories} courses={courses} />);
    fillStep1();
    fireEvent.click(next());
    expect(next()).toHaveProperty('disabled', true);
    expect(screen.getByText(/tick “My industry isn't listed”, to continue/)).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/My industry isn't listed/));
    expect(next()).toHaveProperty('disabled', false);
    fireEvent.click(next());
    expect(heading().textContent).toBe('Courses');
    expect((screen.getByLabelText(/Not sure/) as HTMLInputElement).checked).toBe(true);
    // Nothing to suggest from yet: a clear message on the experience field, and the step stays.
    fireEvent.click(next());
    expect(heading().textContent).toBe('Courses');
    const box = screen.getByLabelText(/Your experience/);
    expect(document.activeElement).toBe(box);
    expect(screen.getByText(/Your industry is not listed, so tell us about your work/)).toBeTruthy();
    fireEvent.change(box, { target: { value: 'Marine electrician on ferries for 9 years' } });
    fireEvent.click(next());
    fireEvent.change(screen.getByLabelText(/State or territory/), { target: { value: 'TAS' } });
    fireEvent.click(next());
    fireEvent.click(screen.getByLabelText(/I agree to be bound by the/));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Submit Request' })));
    const sent = JSON.parse((vi.mocked(fetch).mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(sent).toMatchObject({ selectedCategories: [], selectedCourses: [], notSure: true });
    expect(screen.getByTestId('quote-reference').textContent).toBe('ref-1');
  });

  it('finding 3: on a phone, "Not sure" and the experience come before the list of courses', () => {
    vi.stubGlobal(
      'matchMedia',
      (query: string) =>
        ({ matches: query === '(max-width: 768px)', addEventListener() {}, removeEventListener() {} }) as never,
    );
    render(<QuoteWizard categories={categories} courses={courses} />);
    fillStep1();
    fireEvent.click(next());
    fireEvent.click(screen.getByLabelText('Civil Construction'));
    fireEvent.click(next());
    const order = [
      screen.getByLabelText(/Not sure/),
      screen.getByLabelText(/Your experience/),
      screen.getByLabelText(/Plant Operations/),
    ];
    for (let i = 1; i < order.length; i++)
      expect(order[i - 1].compareDocumentPosition(order[i]) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('?search= chooses the best match of the course search', async () => {
    window.history.replaceState(null, '', '/free-quote?search=plant+operations');
    render(<QuoteWizard categories={categories} courses={courses} />);
    await vi.waitFor(() => expect(document.querySelector('.quote__preselected')?.textContent).toMatch(/RII30820/), {
      timeout: 5000,
    });
  });

  it('"Not sure" satisfies step 3 and the answer\'s result is shown with the reference', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              success: true,
              id: '20250722T101530123Z-9f86d081',
              result: [
                {
                  code: 'RII30820',
                  title: 'Certificate III in Civil Construction Plant Operations',
                  level: 'Certificate III',
                  category: 'civil-construction',
                  categoryName: 'Civil Construction',
                  selected: false,
                  evidence: ['Plant tickets for the machines you operate'],
                  notIncluded: 'A high risk work licence is separate.',
                },
              ],
            }),
            { status: 200 },
          ),
      ),
    );
    render(<QuoteWizard categories={categories} courses={courses} />);
    fillStep1();
    fireEvent.click(next());
    fireEvent.click(screen.getByLabelText('Civil Construction'));
    fireEvent.click(next());
    expect(next()).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByLabelText(/Not sure/));
    expect(next()).toHaveProperty('disabled', false);
    fireEvent.change(screen.getByLabelText(/Your experience/), { target: { value: 'Excavator operator for 6 years' } });
    fireEvent.click(next());
    fireEvent.change(screen.getByLabelText(/State or territory/), { target: { value: 'NSW' } });
    fireEvent.click(next());
    fireEvent.click(screen.getByLabelText(/I agree to be bound by the/));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Submit Request' })));
    const sent = JSON.parse((vi.mocked(fetch).mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(sent).toMatchObject({ notSure: true, selectedCourses: [], experience: 'Excavator operator for 6 years' });
    expect(screen.getByTestId('quote-reference').textContent).toBe('20250722T101530123Z-9f86d081');
    expect(screen.getByText(/An indication, not an assessment/)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 4, name: /Plant Operations/ })).toBeTruthy();
    expect(screen.getByText('Plant tickets for the machines you operate')).toBeTruthy();
    expect(screen.getByText('A high risk work licence is separate.')).toBeTruthy();
  });
});
