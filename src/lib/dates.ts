/** Dates as Australians write them ("22 July 2025"), on the business's calendar (Sydney time). */
const longDate = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Australia/Sydney',
});

export const formatLongDate = (value: string | number | Date) => longDate.format(new Date(value));
