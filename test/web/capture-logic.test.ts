import { describe, expect, it } from 'vitest';
import { ApiError, OfflineError } from '../../web/capture/errors.js';
import { classify, tokenFromHash, waitText } from '../../web/capture/messages.js';

describe('capture page logic', () => {
  it('reads the handoff token from the fragment only when it looks like one', () => {
    const token = 'A'.repeat(21) + '-_' + 'z'.repeat(20);
    expect(tokenFromHash(`#${token}`)).toBe(token);
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#')).toBeNull();
    expect(tokenFromHash('#short')).toBeNull();
    expect(tokenFromHash(`#${token}&x=<script>`)).toBeNull();
  });

  it('turns every documented capture answer into what to do, in plain words', () => {
    expect(classify(new ApiError(401, 'expired', null), 'document')).toEqual({ kind: 'expired' });
    expect(classify(new ApiError(409, 'already', null), 'frame')).toEqual({ kind: 'resume' });
    const tooLarge = classify(new ApiError(413, 'x', null), 'document');
    expect(tooLarge).toMatchObject({ kind: 'retake' });
    expect((tooLarge as { message: string }).message).toContain('larger than 15 MB');
    expect((classify(new ApiError(415, 'x', null), 'frame') as { message: string }).message).toContain('photo of your face');
    expect((classify(new ApiError(422, 'x', null), 'document') as { message: string }).message).toContain('whole document');
    expect(classify(new ApiError(429, 'x', 17), 'frame')).toEqual({ kind: 'wait', seconds: 17 });
    expect(classify(new ApiError(429, 'x', null), 'frame')).toEqual({ kind: 'wait', seconds: 30 });
    expect(classify(new OfflineError('x'), 'none')).toEqual({ kind: 'offline' });
    expect(classify(new ApiError(503, 'x', null), 'none')).toMatchObject({ kind: 'broken' });
    expect(classify(new TypeError('bug'), 'none')).toMatchObject({ kind: 'broken' });
    expect(waitText(1)).toContain('wait 1 second,');
    expect(waitText(0)).toBe('You can try again now.');
  });
});
