import type { Pose } from '../api.js';
import type { PlainKey } from '../i18n/catalogue.js';
import { t } from '../i18n/language.js';

/**
 * The pose of a challenge step when the step does not say it: the instruction's own words.
 * Steps without a recognisable pose show the words alone.
 */
export function poseOf(step: { instruction: string; pose?: Pose | null }): Pose | null {
  if (step.pose) return step.pose;
  const text = step.instruction.toLowerCase();
  if (/\bleft\b/.test(text)) return 'left';
  if (/\bright\b/.test(text)) return 'right';
  if (/\bstraight\b|\bfront\b/.test(text)) return 'front';
  return null;
}

const LABEL: Record<Pose, PlainKey & `pose.${Pose}`> = { front: 'pose.front', left: 'pose.left', right: 'pose.right' };

/**
 * A head as the person sees themselves in the (mirrored) camera preview: turning to one's own
 * left moves the face toward the screen's left edge, so `left` is drawn facing left.
 */
export function PoseDrawing({ pose }: { pose: Pose }) {
  const o = pose === 'left' ? -10 : pose === 'right' ? 10 : 0;
  const nose = `M${60 + o} 56 L${60 + o * 1.9} 74 L${60 + o * 0.8} 76`;
  return (
    <svg class="pose" viewBox="0 0 120 130" role="img" aria-label={t(LABEL[pose])}>
      <g fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" stroke-linejoin="round">
        <ellipse cx="60" cy="72" rx="32" ry="40" />
        {o !== 0 && <path d={o < 0 ? 'M92 66 q7 6 0 16' : 'M28 66 q-7 6 0 16'} />}
        <circle cx={47 + o * 1.2} cy="62" r="2.5" fill="currentColor" />
        <circle cx={73 + o * 1.2} cy="62" r="2.5" fill="currentColor" />
        <path d={nose} />
        <path d={`M${50 + o * 1.2} 92 q${10} 7 ${20} 0`} />
        {pose === 'left' && <path class="arrow" d="M84 18 Q60 4 36 18 M36 18 l9 -1 M36 18 l3 -8" />}
        {pose === 'right' && <path class="arrow" d="M36 18 Q60 4 84 18 M84 18 l-9 -1 M84 18 l-3 -8" />}
      </g>
    </svg>
  );
}
