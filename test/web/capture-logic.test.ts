import { describe, expect, it } from 'vitest';
import { ApiError, OfflineError } from '../../web/capture/errors.js';
import { classify, tokenFromHash, waitText } from '../../web/capture/messages.js';
import { poseFollowed } from '../../src/identity/face-rules.js';
import type { Pose } from '../../src/recognition/faces/signals.js';
import { judgeFrame as judgeWith, yawThresholdsOf, type Verdict } from '../../web/capture/pose/rule.js';
import { format, type Phrase } from '../../web/capture/i18n/catalogue.js';
import { en } from '../../web/capture/i18n/en.js';

/** What a person reading English sees (the other languages: capture-catalogues.test.ts). */
const english = (p: Phrase) => format(en, p);
const messageOf = (failure: ReturnType<typeof classify>) => ('message' in failure ? english(failure.message) : null);

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
    expect(messageOf(tooLarge)).toBe(
      'We could not use the photo of your document: the file is larger than 15 MB. Take the photo again, or choose a smaller file.',
    );
    expect(messageOf(classify(new ApiError(415, 'x', null), 'frame'))).toContain('We could not use the photo of your face: it is not');
    expect(messageOf(classify(new ApiError(422, 'x', null), 'document'))).toContain('whole document');
    expect(messageOf(classify(new ApiError(422, 'x', null, 'image_too_small'), 'frame'))).toContain(
      'photo of your face: it has too few pixels',
    );
    expect(classify(new ApiError(429, 'x', 17), 'frame')).toEqual({ kind: 'wait', seconds: 17 });
    expect(classify(new ApiError(429, 'x', null), 'frame')).toEqual({ kind: 'wait', seconds: 30 });
    expect(classify(new OfflineError('x'), 'none')).toEqual({ kind: 'offline' });
    expect(classify(new ApiError(503, 'x', null), 'none')).toMatchObject({ kind: 'broken' });
    expect(messageOf(classify(new ApiError(403, 'x', null), 'none'))).toContain('refused this step (403)');
    expect(classify(new TypeError('bug'), 'none')).toMatchObject({ kind: 'broken' });
    expect(english(waitText(1))).toContain('wait 1 second,');
    expect(english(waitText(2))).toContain('wait 2 seconds,');
    expect(english(waitText(0))).toBe('You can try again now.');
  });
});

describe('the capture page’s pose rule: the service’s own, in words', () => {
  const face = (yaw: number | null, width = 200) => ({ box: [100, 80, width, 260] as [number, number, number, number], yaw });
  const frame = (...faces: ReturnType<typeof face>[]) => ({ width: 640, faces });
  // The server's defaults (FACE_YAW_TURN 0.15, FACE_YAW_FRONT 0.25), as a challenge hands them over.
  /** A verdict with its hint in English words. */
  const worded = (v: Verdict) => ({ ...v, hint: english(v.hint) });
  const judgeFrame = (pose: Pose | null, f: ReturnType<typeof frame>) =>
    worded(judgeWith(pose, f, yawThresholdsOf({ yaw_turn: 0.15, yaw_front: 0.25 })));

  it('passes the asked turn at the service’s thresholds (left: yaw ≤ -0.15, as the image turns to its right edge)', () => {
    expect(judgeFrame('left', frame(face(-0.15))).ok).toBe(true);
    expect(judgeFrame('right', frame(face(0.41))).ok).toBe(true);
    expect(judgeFrame('front', frame(face(0.25))).ok).toBe(true);
    expect(judgeFrame(null, frame(face(0.9))).ok).toBe(true);
  });

  it('refuses the wrong way, too little, no face and two faces, saying what to do', () => {
    expect(judgeFrame('right', frame(face(-0.41)))).toEqual({ ok: false, hint: 'That is your left. Turn your head to your right.' });
    expect(judgeFrame('left', frame(face(0.41)))).toEqual({ ok: false, hint: 'That is your right. Turn your head to your left.' });
    expect(judgeFrame('right', frame(face(0.1)))).toEqual({ ok: false, hint: 'Turn a little more to your right.' });
    expect(judgeFrame('left', frame(face(-0.1)))).toEqual({ ok: false, hint: 'Turn a little more to your left.' });
    expect(judgeFrame('left', frame(face(null)))).toEqual({ ok: false, hint: 'Turn a little more to your left.' });
    expect(judgeFrame('front', frame(face(0.3)))).toEqual({ ok: false, hint: 'Look straight at the screen.' });
    expect(judgeFrame('front', frame()).ok).toBe(false);
    expect(judgeFrame('front', frame(face(0), face(0, 60)))).toMatchObject({ ok: false, hint: /Only one face/ });
  });

  it('lets a small face through but asks to move closer (the picture is then not taken by itself)', () => {
    expect(judgeFrame('front', frame(face(0, 80)))).toEqual({
      ok: true,
      closer: true,
      hint: 'Move closer: your face should fill the oval.',
    });
    expect(judgeFrame('front', frame(face(0, 200)))).toMatchObject({ ok: true, closer: false });
  });

  it('judges by the thresholds the server hands over: what the page accepts, the pipeline’s rule accepts, and nothing else', () => {
    const strict = { yaw_turn: 0.4, yaw_front: 0.1 };
    const t = { ...yawThresholdsOf(strict)!, matchLow: 0, matchHigh: 0 };
    // A turn the defaults would take is "a little more" under a server asking for 0.4 rad.
    expect(worded(judgeWith('left', frame(face(-0.3)), yawThresholdsOf(strict)))).toEqual({
      ok: false,
      hint: 'Turn a little more to your left.',
    });
    expect(worded(judgeWith('front', frame(face(0.2)), yawThresholdsOf(strict)))).toEqual({
      ok: false,
      hint: 'Look straight at the screen.',
    });
    for (const pose of ['front', 'left', 'right'] as const)
      for (let yaw = -0.8; yaw <= 0.8; yaw += 0.05)
        expect(judgeWith(pose, frame(face(yaw)), yawThresholdsOf(strict)).ok, `${pose} at ${yaw}`).toBe(poseFollowed(pose, yaw, t));
  });
});
