import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { captureAll, HIGH_LIMITS, identityTenant, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';

describe('the document reuse signal stays within a profile', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });

  it('does not send a verification to review because another tenant uploaded the same document', async () => {
    const other = await identityTenant(ctx);
    const document = png(640, 480, { seed: 7301 });
    const elsewhere = await captureAll(ctx, other.backend, { document });
    expect((await settle(ctx, other.backend, elsewhere.id)).status).toBe('approved');

    const first = await captureAll(ctx, tenant.backend, { document });
    expect(await settle(ctx, tenant.backend, first.id)).toMatchObject({ status: 'approved', decision_reason: null });

    // Within the profile the signal holds.
    const again = await captureAll(ctx, tenant.backend, { document });
    expect(await settle(ctx, tenant.backend, again.id)).toMatchObject({ status: 'manual_review', decision_reason: 'document_reused' });
  });
});
