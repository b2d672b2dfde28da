import { openLocalData } from '../../../scripts/lib/local-data.ts';
import { createInquiry } from '../../../src/server/inquiries.ts';

/**
 * A contact inquiry straight into the local server's store, through the same code the form uses (the forms'
 * rate limit would take minutes when many tests need one).
 */
export async function storeInquiry(contact: { firstName: string; lastName: string; email: string }) {
  const target = await openLocalData({});
  try {
    return await createInquiry({
      kind: 'contact',
      source: 'contact',
      contact: { ...contact, phone: '0400 000 000' },
      message: 'Could you tell me what my experience counts for?',
    });
  } finally {
    await target.close();
  }
}
