import { useEffect, useRef, useState } from 'preact/hooks';
import type { Challenge, FrameSource, Pose } from '../api.js';
import { canvasToJpeg, fileToCanvas, snapshot, UnreadableImage } from '../camera.js';
import { notice, progress, sendFrame, waitSeconds } from '../flow.js';
import { phrase } from '../i18n/catalogue.js';
import { instructionPhrase } from '../i18n/instructions.js';
import { say, t } from '../i18n/language.js';
import { checkerState, loadPoseChecker } from '../pose/checker.js';
import { judgeFrame, yawThresholdsOf, type Verdict, type YawThresholds } from '../pose/rule.js';
import { CAMERA_PROBLEM, CameraView, FaceGuide, PhotoPicker, useCamera } from './camera-view.js';
import { Heading } from './heading.js';
import { NoticeBox, UploadProgress } from './notice.js';
import { PoseDrawing, poseOf } from './pose.js';

/** Seconds between pressing the button and the picture: time to take the pose with the hands free. */
const COUNTDOWN = 3;
/** How long the asked pose must hold before the picture is taken by itself. */
const HOLD_MS = 600;
/** Pause between two live checks, so the phone keeps some breath for the preview. */
const CHECK_PAUSE_MS = 80;
/** Longest side of a selfie frame as sent. */
const FRAME_SIDE = 1280;

/** The check of a picture against the step, or null when the check cannot run (the picture is then sent as it is). */
async function verdictOf(picture: HTMLCanvasElement, pose: Pose | null, yaw: YawThresholds): Promise<Verdict | null> {
  const state = checkerState.value;
  if (state.status !== 'ready') return null;
  try {
    return judgeFrame(pose, await state.checker.analyze(picture), yaw);
  } catch {
    return null;
  }
}

/** A chosen photo shown before it is sent, with what the check found. */
interface Picked {
  canvas: HTMLCanvasElement;
  url: string;
  verdict: Verdict | null;
}

/**
 * Step 2: the liveness challenge, one instruction at a time. The front camera runs; each frame is
 * checked in the browser against the step's pose and the picture is taken by itself once the pose
 * holds; the button stays as a fallback. A picture whose pose contradicts the step is never sent.
 */
export function ChallengeScreen({ challenge, step }: { challenge: Challenge; step: number }) {
  const { state, video } = useCamera('user', true);
  const [count, setCount] = useState<number | null>(null);
  const [hint, setHint] = useState<Verdict | null>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  const busy = useRef(false);
  const current = challenge.steps.find((s) => s.step === step) ?? challenge.steps[0]!;
  const pose = poseOf(current);
  const yaw = yawThresholdsOf(challenge.pose_check);
  const sending = progress.value !== null || waitSeconds.value > 0;
  const total = challenge.steps.length;
  const checker = checkerState.value.status;
  const failed = state.status === 'failed';
  const camera = !failed;

  useEffect(() => loadPoseChecker(), []);

  // A new step starts without a countdown, a chosen photo or an old hint.
  useEffect(() => {
    setCount(null);
    setHint(null);
    setPicked(null);
  }, [step]);

  useEffect(() => () => picked && URL.revokeObjectURL(picked.url), [picked]);

  /** Checks the picture, then sends it, or says what is wrong and sends nothing. */
  const checkAndSend = async (picture: HTMLCanvasElement, verdict?: Verdict | null, source: FrameSource = 'camera') => {
    if (busy.current) return;
    busy.current = true;
    try {
      const v = verdict === undefined ? await verdictOf(picture, pose, yaw) : verdict;
      if (v && !v.ok) {
        notice.value = { kind: 'retake', message: phrase('challenge.not_sent', { hint: v.hint }) };
        return;
      }
      await sendFrame(step, await canvasToJpeg(picture), source);
    } catch {
      notice.value = { kind: 'retake', message: phrase('photo.not_prepared') };
    } finally {
      busy.current = false;
    }
  };

  // The live guide: check the camera's picture again and again; once the pose holds, take it.
  useEffect(() => {
    if (!camera || state.status !== 'live' || checker !== 'ready' || sending || count !== null) return;
    let stopped = false;
    let heldSince: number | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      const el = video.current;
      if (stopped || !el || busy.current) return void (timer = setTimeout(tick, 250));
      let picture: HTMLCanvasElement;
      try {
        picture = snapshot(el, FRAME_SIDE);
      } catch {
        return void (timer = setTimeout(tick, 250));
      }
      const verdict = await verdictOf(picture, pose, yaw);
      if (stopped) return;
      setHint(verdict);
      if (verdict?.ok && !verdict.closer) {
        heldSince ??= performance.now();
        if (performance.now() - heldSince >= HOLD_MS) {
          stopped = true;
          await checkAndSend(picture, verdict);
          return;
        }
      } else heldSince = null;
      timer = setTimeout(tick, CHECK_PAUSE_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [camera, state.status, checker, sending, count, step]);

  // The fallback button's countdown, then the same check as the live guide.
  useEffect(() => {
    if (count === null) return;
    if (count > 0) {
      const timer = setTimeout(() => setCount(count - 1), 1000);
      return () => clearTimeout(timer);
    }
    setCount(null);
    const el = video.current;
    if (!el) return;
    let picture: HTMLCanvasElement;
    try {
      picture = snapshot(el, FRAME_SIDE);
    } catch {
      notice.value = { kind: 'retake', message: phrase('camera.no_picture') };
      return;
    }
    void checkAndSend(picture);
  }, [count]);

  const choose = async (file: File) => {
    notice.value = null;
    try {
      const canvas = await fileToCanvas(file, FRAME_SIDE);
      const blob = await canvasToJpeg(canvas);
      setPicked({ canvas, url: URL.createObjectURL(blob), verdict: await verdictOf(canvas, pose, yaw) });
    } catch (err) {
      notice.value = {
        kind: 'retake',
        message: phrase(err instanceof UnreadableImage ? 'challenge.not_a_photo' : 'photo.not_prepared'),
      };
    }
  };

  // The API's words decide what the step asks; the person reads them in their language.
  const instruction = say(instructionPhrase(current.instruction));
  const still = /\bblink/i.test(current.instruction) ? ` ${t('challenge.still')}` : '';
  const stepLabel = t('challenge.step', { photo: step + 1, total });
  /**
   * A file only when the camera is denied, missing or unusable (docs/identity.md, "Consent and capture"): a
   * photo from the library could show someone else. Such a frame is sent marked `source: file`,
   * and the reviewer sees that mark. The picker asks the phone to open its camera app directly.
   */
  const picker = (label: string, primary = false) => (
    <PhotoPicker label={label} capture="user" primary={primary} onFile={(f) => void choose(f)} disabled={sending} />
  );

  if (picked) {
    const v = picked.verdict;
    return (
      <>
        <Heading step={stepLabel}>{instruction}</Heading>
        <img class="preview" src={picked.url} alt={t('challenge.chosen')} />
        {v && !v.ok && (
          <p class="notice warn" role="alert">
            {t('challenge.chosen_refused', { hint: v.hint })}
          </p>
        )}
        {!v && checker === 'failed' && <p class="notice info">{t('challenge.check_failed')}</p>}
        <NoticeBox retry={false} />
        <UploadProgress />
        <div class="actions">
          {(!v || v.ok) && (
            <button type="button" class="button" disabled={sending} onClick={() => void checkAndSend(picked.canvas, v, 'file')}>
              {t('photo.send')}
            </button>
          )}
          {picker(t('challenge.choose_another'), !!v && !v.ok)}
        </div>
      </>
    );
  }

  return (
    <>
      <Heading step={stepLabel}>{instruction}</Heading>
      <div class="pose-row">
        {pose && <PoseDrawing pose={pose} />}
        <p>
          {!camera
            ? t('challenge.without_camera')
            : checker === 'failed'
              ? t('challenge.with_button', { seconds: COUNTDOWN })
              : t('challenge.with_guide', { seconds: COUNTDOWN })}
          {still}
        </p>
      </div>
      {failed && <p class="notice info">{say(CAMERA_PROBLEM[state.problem])}</p>}
      {camera && (
        <CameraView video={video} mirror live={state.status === 'live'} label={t('camera.front')}>
          <FaceGuide />
          {count !== null && (
            <p class="countdown" aria-hidden="true">
              {count || ''}
            </p>
          )}
        </CameraView>
      )}
      {camera && checker === 'ready' && state.status === 'live' && (
        <p class={`guide-hint${hint?.ok ? ' good' : ''}`} aria-live="polite">
          {hint ? say(hint.hint) : t('challenge.checking')}
        </p>
      )}
      {camera && checker === 'loading' && <p class="small">{t('challenge.check_loading')}</p>}
      {checker === 'failed' && <p class="notice info">{t('challenge.check_failed')}</p>}
      <NoticeBox />
      <UploadProgress />
      <div class="actions">
        {camera && (
          <button
            type="button"
            class="button"
            disabled={state.status !== 'live' || sending || count !== null}
            onClick={() => setCount(COUNTDOWN)}
          >
            {count !== null ? t('challenge.hold_still', { count }) : t('photo.take')}
          </button>
        )}
        {!camera && picker(t('challenge.take_or_choose'), true)}
      </div>
    </>
  );
}
