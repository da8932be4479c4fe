import { useLoad } from './lib.js';
import { faceCrop, faceCards, type FaceCard } from './review-faces.js';
import { ImagePending, useCaseImage, Zoomable, type EvidenceImage } from './review-evidence.js';
import type { SignalLine } from './review-signals.js';

/** The part of `src` (a data: URL) inside the face's box, as a data: URL; the whole image when the signals hold no box. */
async function cropped(src: string, card: FaceCard): Promise<{ src: string; cropped: boolean }> {
  const image = new Image();
  image.src = src;
  await image.decode();
  const rect = faceCrop(card.face, card.analysed, { width: image.naturalWidth, height: image.naturalHeight });
  if (!rect) return { src, cropped: false };
  const canvas = document.createElement('canvas');
  canvas.width = rect.width;
  canvas.height = rect.height;
  canvas.getContext('2d')!.drawImage(image, rect.x, rect.y, rect.width, rect.height, 0, 0, rect.width, rect.height);
  return { src: canvas.toDataURL('image/png'), cropped: true };
}

/** Measurements in a list beside the image they describe, each marked as passing or not. */
export function SignalList({ lines, testId }: { lines: SignalLine[]; testId?: string }) {
  return (
    <ul class="signals" data-testid={testId}>
      {lines.map((l) => (
        <li key={l.label} class={l.passes === null ? '' : l.passes ? 'pass' : 'fail'}>
          <strong>{l.label}</strong> {l.text}
          {l.passes !== null && <span class="sr-only">{l.passes ? ' (passes)' : ' (does not pass)'}</span>}
        </li>
      ))}
    </ul>
  );
}

/** One face: the crop around it (a button that opens the whole image), and what was measured of it beneath. */
function FaceFigure({ card, image }: { card: FaceCard; image: EvidenceImage }) {
  const full = useCaseImage(image.url);
  const crop = useLoad(() => (full.data ? cropped(full.data, card) : Promise.resolve(null)), [full.data]);
  const lines = [card.match, card.pose].filter((l): l is SignalLine => l !== null);
  if (card.faceCount !== null && card.faceCount !== 1)
    lines.push({ label: 'Faces', text: `${card.faceCount} — needs exactly one`, passes: false });
  return (
    <figure class="face-card" data-testid={`face-${card.key}`}>
      <figcaption>{image.caption}</figcaption>
      {full.data && crop.data ? (
        <Zoomable image={image} src={full.data}>
          <img src={crop.data.src} alt={crop.data.cropped ? `${image.alt}, cut around the face` : image.alt} />
        </Zoomable>
      ) : (
        <ImagePending url={image.url} state={full.error ? full : crop} />
      )}
      {lines.length > 0 && <SignalList lines={lines} />}
    </figure>
  );
}

/**
 * The document's face beside every frame's, each with its own figures (docs/consoles.md, "Reviewer
 * console"): the reviewer compares faces, not pages, and a frame that pulls the match down or
 * did not turn is seen beside its picture. Nothing without face signals (face checks off).
 */
export function FaceComparison({
  signals,
  document,
  frame,
}: {
  signals: Record<string, unknown>;
  document: EvidenceImage;
  /** The frame image of a step. */
  frame: (step: number) => EvidenceImage | undefined;
}) {
  const cards = faceCards(signals);
  if (!cards) return null;
  return (
    <div class="faces">
      <div class="face-document">
        <FaceFigure card={cards.document} image={document} />
      </div>
      <div class="face-frames">
        {cards.frames.map((card) => {
          const image = frame(Number(card.key.slice('step-'.length)));
          return image ? <FaceFigure key={card.key} card={card} image={image} /> : null;
        })}
      </div>
    </div>
  );
}
