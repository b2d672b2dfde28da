import * as v from 'valibot';

/** Staff inbox queries and changes (GET/PATCH /api/admin/inquiries). */
export const InboxQuerySchema = v.object({
  status: v.optional(v.picklist(['all', 'new', 'handled'], 'status must be all, new or handled'), 'all'),
  offset: v.optional(v.pipe(v.string(), v.regex(/^\d{1,6}$/, 'offset must be a whole number'), v.transform(Number)), '0'),
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,3}$/, 'limit must be a whole number from 1 to 100'), v.transform(Number), v.minValue(1, 'limit must be a whole number from 1 to 100'), v.maxValue(100, 'limit must be a whole number from 1 to 100')),
    '25',
  ),
});

export const InboxChangeSchema = v.object({
  status: v.picklist(['new', 'handled'], 'status must be new or handled'),
});
