import { describe, expect, it } from 'vitest';
import { businessEntity, formatAbn } from '../../src/lib/business-entity';

describe('business entity on the legal pages', () => {
  it('falls back to the trading name and no ABN when the settings do not hold them', () => {
    expect(businessEntity({ contactInfo: {}, socialMedia: {} })).toEqual({ legalName: 'RPL Pathways', abn: '' });
    expect(businessEntity(undefined)).toEqual({ legalName: 'RPL Pathways', abn: '' });
    expect(businessEntity({ business: { legalName: '  ', abn: 42 } })).toEqual({ legalName: 'RPL Pathways', abn: '' });
  });

  it('reads the legal name and ABN from the settings, with the ABN in its usual groups', () => {
    expect(businessEntity({ business: { legalName: 'RPL Pathways Pty Ltd', abn: '12345678901' } })).toEqual({ legalName: 'RPL Pathways Pty Ltd', abn: '12 345 678 901' });
  });

  it('leaves an ABN it cannot group as it was typed', () => {
    expect(formatAbn('12 345 678 901')).toBe('12 345 678 901');
    expect(formatAbn(' 123 ')).toBe('123');
  });
});
