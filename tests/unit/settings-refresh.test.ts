// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { applySettings } from '../../src/lib/settings-refresh';

const markup = `
  <a href="mailto:old@example.com" data-setting="contactInfo.email" data-setting-link="mailto">old@example.com</a>
  <li data-setting-item><a href="tel:0200000000" data-setting="contactInfo.phoneSecondary" data-setting-link="tel">02 0000 0000</a></li>
  <span data-setting="contactInfo.businessHours">Mon</span>
  <ul>
    <li data-setting-item><a href="https://facebook.com/old" data-setting="socialMedia.facebook" data-setting-link="url"><svg></svg></a></li>
    <li data-setting-item hidden><a data-setting="socialMedia.youtube" data-setting-link="url"><svg></svg></a></li>
    <li data-setting-item><a href="https://instagram.com/x" data-setting="socialMedia.instagram" data-setting-link="url"><svg></svg></a></li>
  </ul>`;

describe('settings refresh on public pages', () => {
  it('updates texts and links, reveals and hides items by the empty-link rule, keeps icons', () => {
    document.body.innerHTML = markup;
    const changed = applySettings(document, {
      contactInfo: { email: 'new@example.com', phoneSecondary: '', businessHours: 'Mon - Fri: 9 am - 5 pm' },
      socialMedia: {
        facebook: 'javascript:void(0)',
        youtube: 'https://youtube.com/@new',
        instagram: 'javascript:alert(1)',
      },
    });
    expect(changed).toBeGreaterThan(0);
    const email = document.querySelector('[data-setting="contactInfo.email"]')!;
    expect(email.getAttribute('href')).toBe('mailto:new@example.com');
    expect(email.textContent).toBe('new@example.com');
    expect(document.querySelector('[data-setting="contactInfo.phoneSecondary"]')!.closest('li')!.hidden).toBe(true);
    expect(document.querySelector('[data-setting="contactInfo.businessHours"]')!.textContent).toBe(
      'Mon - Fri: 9 am - 5 pm',
    );
    const [facebook, youtube, instagram] = [...document.querySelectorAll('ul li')] as HTMLLIElement[];
    expect(facebook.hidden).toBe(true);
    expect(youtube.hidden).toBe(false);
    expect(youtube.querySelector('a')!.getAttribute('href')).toBe('https://youtube.com/@new');
    expect(youtube.querySelector('svg')).not.toBeNull();
    // Not an http(s) address: never becomes a link.
    expect(instagram.hidden).toBe(true);
    expect(instagram.querySelector('a')!.getAttribute('href')).toBe('https://instagram.com/x');
  });

  it('shows the built-in fallback instead of an empty value where one is given', () => {
    document.body.innerHTML =
      '<p data-setting="contactInfo.address" data-setting-fallback="200 Gilchrist Dr, Campbelltown NSW 2560">Old St</p>';
    applySettings(document, { contactInfo: { address: '' } });
    expect(document.querySelector('p')!.textContent).toBe('200 Gilchrist Dr, Campbelltown NSW 2560');
  });

  it('leaves the page alone when values are missing', () => {
    document.body.innerHTML = markup;
    expect(applySettings(document, {})).toBe(0);
  });
});
