import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { httpsUrlOf } from '../../src/identity/schemas.js';
import { detailInWords, fieldInWords } from '../../web/console/validation-words.js';

/** zod's own message for `value` against `schema`, as the operator API puts it in a detail. */
const zodSays = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error!.issues[0]!.message;

describe('validation errors in words', () => {
  it('names the field, not its schema path', () => {
    expect(fieldInWords('body.name')).toBe('Name');
    expect(fieldInWords('body.baseline.maxDrift')).toBe('Max drift');
    expect(fieldInWords('body.mandate.0')).toBe('Mandate');
    expect(fieldInWords('query.profile_id')).toBe('Profile id');
    expect(fieldInWords('body')).toBe('The request');
  });

  it("says zod's common failures plainly and passes anything else through", () => {
    expect(detailInWords('body.name', zodSays(z.string().min(1), ''))).toBe('Name: needs at least 1 character');
    expect(detailInWords('body.name', zodSays(z.string().max(80), 'x'.repeat(81)))).toBe('Name: may have at most 80 characters');
    expect(detailInWords('body.scopes', zodSays(z.array(z.string()).min(1), []))).toBe('Scopes: choose at least 1');
    expect(detailInWords('body.lat', zodSays(z.number().min(-90), -91))).toBe('Latitude: must be at least -90');
    expect(detailInWords('body.lng', zodSays(z.number().max(180), 181))).toBe('Longitude: must be at most 180');
    expect(detailInWords('body.baseline.maxDrift', zodSays(z.number(), 'x'))).toBe('Max drift: must be a number');
    expect(detailInWords('body.plan', zodSays(z.enum(['FREE', 'PRO']), 'GOLD'))).toBe('Plan: must be one of FREE, PRO');
    expect(detailInWords('body.expiresAt', zodSays(z.iso.datetime({ offset: true }), 'soon'))).toBe('Expires at: must be a date and time');
    expect(detailInWords('body.url', zodSays(z.url(), 'nope'))).toBe('URL: must be a web address (https://…)');
    expect(detailInWords('body.timezone', 'unknown time-zone name')).toBe('Time zone: unknown time-zone name');
    // The server's https rule names its own field; the form says it once.
    expect(detailInWords('body.privacyPolicyUrl', zodSays(httpsUrlOf('privacyPolicyUrl'), 'http://example.com'))).toBe(
      'Privacy policy URL: must be an https:// address',
    );
  });
});
