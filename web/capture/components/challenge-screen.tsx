import { useEffect, useState } from 'preact/hooks';
import type { Challenge } from '../api.js';
import { fileToJpeg, grabFrame, UnreadableImage } from '../camera.js';
import { notice, progress, sendFrame, waitSeconds } from '../flow.js';
import { CAMERA_PROBLEM, CameraView, FaceGuide, PhotoPicker, useCamera } from './camera-view.js';
import { Heading } from './heading.js';
import { NoticeBox, UploadProgress } from './notice.js';
import { PoseDrawing, poseOf } from './pose.js';

/** Seconds between pressing the button and the picture: time to take the pose with the hands free. */
const COUNTDOWN = 3;

/** Step 2: the liveness challenge, one instruction at a time, a frame from the front camera for each, sent at once. */
export function ChallengeScreen({ challenge, step }: { challenge: Challenge; step: number }) {
  const { state, video } = useCamera('user', true);
  const [count, setCount] = useState<number | null>(null);
  const current = challenge.steps.find((s) => s.step === step) ?? challenge.steps[0]!;
  const pose = poseOf(current);
  const sending = progress.value !== null || waitSeconds.value > 0;
  const total = challenge.steps.length;

  // A new step starts without a countdown running.
  useEffect(() => setCount(null), [step]);

  useEffect(() => {
    if (count === null) return;
    if (count > 0) {
      const timer = setTimeout(() => setCount(count - 1), 1000);
      return () => clearTimeout(timer);
    }
    setCount(null);
    const el = video.current;
    if (!el) return;
    grabFrame(el, 1280).then(
      (frame) => sendFrame(step, frame),
      () => (notice.value = { kind: 'retake', message: 'The camera gave no picture. Press the button again.' }),
    );
  }, [count]);

  const choose = async (file: File) => {
    try {
      await sendFrame(step, await fileToJpeg(file, 1280));
    } catch (err) {
      notice.value = {
        kind: 'retake',
        message:
          err instanceof UnreadableImage
            ? 'That file is not a photo this browser can open. Take a new photo.'
            : 'The photo could not be prepared. Try again.',
      };
    }
  };

  const failed = state.status === 'failed';
  return (
    <>
      <Heading step={`Step 2 of 2 · photo ${step + 1} of ${total}`}>{current.instruction}</Heading>
      <div class="pose-row">
        {pose && <PoseDrawing pose={pose} />}
        <p>
          Keep your face inside the oval.{' '}
          {failed ? 'Take a selfie doing this.' : `Press the button, then hold the pose: the photo is taken after ${COUNTDOWN} seconds.`}
        </p>
      </div>
      {failed ? (
        <p class="notice info">{CAMERA_PROBLEM[state.problem]}</p>
      ) : (
        <CameraView video={video} mirror live={state.status === 'live'} label="Front camera preview">
          <FaceGuide />
          {count !== null && (
            <p class="countdown" aria-hidden="true">
              {count || ''}
            </p>
          )}
        </CameraView>
      )}
      <NoticeBox />
      <UploadProgress />
      <div class="actions">
        {failed ? (
          <PhotoPicker label="Take a selfie" capture="user" primary onFile={choose} disabled={sending} />
        ) : (
          <button
            type="button"
            class="button"
            disabled={state.status !== 'live' || sending || count !== null}
            onClick={() => setCount(COUNTDOWN)}
          >
            {count !== null ? `Hold still… ${count}` : 'Take photo'}
          </button>
        )}
      </div>
    </>
  );
}
