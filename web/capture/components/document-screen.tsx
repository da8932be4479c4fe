import { useEffect, useRef, useState } from 'preact/hooks';
import { canvasToJpeg, fileToCanvas, snapshot, UnreadableImage } from '../camera.js';
import { notice, progress, sendDocument, waitSeconds } from '../flow.js';
import { DOCUMENT_PROBLEM } from '../messages.js';
import { judgeDocument, measureDocument } from '../quality/document-check.js';
import { CAMERA_PROBLEM, CameraView, PhotoPicker, useCamera } from './camera-view.js';
import { DocumentGuide, DocumentIcon, SIDES, type DocumentKind, type DocumentSide } from './document-guide.js';
import { Heading } from './heading.js';
import { NoticeBox, UploadProgress } from './notice.js';

type Photo = { blob: Blob; url: string };
type Photos = Partial<Record<DocumentSide, Photo>>;

/** What each side asks for, in plain words ("the lines of letters and <<<" is how a person sees the machine-readable zone). */
const SHOOT: Record<DocumentKind, Partial<Record<DocumentSide, { title: string; text: string; label: string }>>> = {
  passport: {
    front: {
      title: 'Photograph your passport’s photo page',
      text: 'Open your passport at the page with your photo and lay it flat in good light. Fit the page inside the frame, with the two lines of letters and <<< signs at the bottom of the page inside the shaded band.',
      label: 'your passport’s photo page',
    },
  },
  id_card: {
    front: {
      title: 'Photograph the front of your ID card',
      text: 'The side with your photo. Lay the card flat in good light and fit it inside the frame.',
      label: 'the front of your ID card',
    },
    back: {
      title: 'Now the back of your ID card',
      text: 'Turn the card over. Fit it inside the frame, with the lines of letters and <<< signs inside the shaded band at the bottom.',
      label: 'the back of your ID card',
    },
  },
};

const stepLabel = (kind: DocumentKind, side: DocumentSide) =>
  kind === 'id_card' ? `Step 1 of 2 · photo ${SIDES.id_card.indexOf(side) + 1} of 2` : 'Step 1 of 2';

/** The first question of step 1: which document, since a card needs both of its sides. */
function ChooseDocument({ onChoose }: { onChoose: (kind: DocumentKind) => void }) {
  return (
    <>
      <Heading step="Step 1 of 2">Which document will you use?</Heading>
      <p>Choose the one you have with you. It must not have expired.</p>
      <div class="actions document-choice">
        <button type="button" class="button secondary choice" onClick={() => onChoose('passport')}>
          <DocumentIcon kind="passport" />
          <span>
            Passport
            <span class="choice-hint">One photo: the page with your photo</span>
          </span>
        </button>
        <button type="button" class="button secondary choice" onClick={() => onChoose('id_card')}>
          <DocumentIcon kind="id_card" />
          <span>
            ID card
            <span class="choice-hint">Two photos: the front, then the back</span>
          </span>
        </button>
      </div>
    </>
  );
}

/**
 * Step 1: the identity document, through the rear camera or a photo file. A passport is one photo
 * (its photo page, machine-readable lines at the foot); an ID card is two, the front with the
 * portrait and the back with the machine-readable lines, sent together in one upload once the
 * person has checked them in a preview.
 */
export function DocumentScreen() {
  const [kind, setKind] = useState<DocumentKind | null>(null);
  const [photos, setPhotos] = useState<Photos>({});
  /** The photo just taken, shown for checking before it is kept. */
  const [pending, setPending] = useState<Photo | null>(null);
  const sides = kind ? SIDES[kind] : [];
  const side = sides.find((s) => !photos[s]) ?? null;
  const { state, video } = useCamera('environment', kind !== null && side !== null && !pending);
  const sending = progress.value !== null;
  const waiting = waitSeconds.value > 0;

  // A photo's preview URL moves from `pending` to `photos`: all are let go together when the screen goes.
  const urls = useRef<string[]>([]);
  useEffect(() => () => urls.current.forEach((url) => URL.revokeObjectURL(url)), []);

  const startOver = (next: DocumentKind | null) => {
    setPending(null);
    setPhotos({});
    setKind(next);
  };
  /**
   * Checks the very pixels that would be sent (size, outline, sharpness, glare — README, "Checks
   * before sending"); a photo that fails is not kept, and the person is told why and asked again.
   */
  const keep = async (canvas: HTMLCanvasElement) => {
    notice.value = null;
    const ctx = canvas.getContext('2d');
    const problem = ctx ? judgeDocument(measureDocument(ctx.getImageData(0, 0, canvas.width, canvas.height))) : null;
    if (problem) {
      notice.value = { kind: 'retake', message: `Not used: ${DOCUMENT_PROBLEM[problem]}` };
      return;
    }
    const blob = await canvasToJpeg(canvas);
    const url = URL.createObjectURL(blob);
    urls.current.push(url);
    setPending({ blob, url });
  };
  const take = async () => {
    if (!video.current) return;
    try {
      await keep(snapshot(video.current));
    } catch {
      notice.value = { kind: 'retake', message: 'The camera gave no picture. Press the button again.' };
    }
  };
  const choose = async (file: File) => {
    try {
      await keep(await fileToCanvas(file));
    } catch (err) {
      notice.value = {
        kind: 'retake',
        message:
          err instanceof UnreadableImage
            ? 'That file is not a photo this browser can open. Choose a JPEG or PNG photo.'
            : 'The photo could not be prepared. Try again.',
      };
    }
  };
  const retakeSide = (which: DocumentSide) => {
    notice.value = null;
    setPending(null);
    const { [which]: _gone, ...rest } = photos;
    setPhotos(rest);
  };
  const useIt = () => {
    if (!pending || !side) return;
    setPhotos({ ...photos, [side]: pending });
    setPending(null);
  };
  const send = async () => {
    const all = pending && side ? { ...photos, [side]: pending } : photos;
    if (!all.front) return;
    // A refused upload says which photo to take again in words; both are taken again to be sure of the pair.
    if (!(await sendDocument(all.front.blob, all.back?.blob)) && notice.value?.kind === 'retake') startOver(kind);
  };

  if (!kind) return <ChooseDocument onChoose={startOver} />;

  if (pending && side) {
    const last = side === sides[sides.length - 1];
    const words = SHOOT[kind][side]!;
    return (
      <>
        <Heading step={stepLabel(kind, side)}>{kind === 'id_card' && last ? 'Check both photos' : 'Check the photo'}</Heading>
        <p>
          Are all four corners in the picture, and is the text sharp and free of glare?
          {side === 'back' || kind === 'passport' ? ' Check that you can read the lines of letters and <<< signs.' : ''}
        </p>
        {kind === 'id_card' && last && photos.front ? (
          <div class="preview-pair">
            <figure>
              <img class="preview" src={photos.front.url} alt="The photo of the front of your ID card, to check before sending" />
              <figcaption>Front</figcaption>
            </figure>
            <figure>
              <img class="preview" src={pending.url} alt="The photo of the back of your ID card, to check before sending" />
              <figcaption>Back</figcaption>
            </figure>
          </div>
        ) : (
          <img class="preview" src={pending.url} alt={`The photo of ${words.label}, to check before ${last ? 'sending' : 'going on'}`} />
        )}
        <NoticeBox retry={false} />
        <UploadProgress />
        <div class="actions">
          {last ? (
            <button type="button" class="button" onClick={send} disabled={sending || waiting}>
              {kind === 'id_card' ? 'Send both photos' : 'Send this photo'}
            </button>
          ) : (
            <button type="button" class="button" onClick={useIt}>
              Use this photo
            </button>
          )}
          <button type="button" class="button secondary" onClick={() => retakeSide(side)} disabled={sending}>
            {kind === 'id_card' && last ? 'Take the back again' : 'Take it again'}
          </button>
          {kind === 'id_card' && last && (
            <button type="button" class="button secondary" onClick={() => startOver(kind)} disabled={sending}>
              Take the front again
            </button>
          )}
        </div>
      </>
    );
  }

  const at = side ?? 'front';
  const words = SHOOT[kind][at]!;
  const failed = state.status === 'failed';
  return (
    <>
      <Heading step={stepLabel(kind, at)}>{words.title}</Heading>
      <p>{words.text}</p>
      {failed ? (
        <p class="notice info">{CAMERA_PROBLEM[state.problem]}</p>
      ) : (
        <CameraView video={video} live={state.status === 'live'} label="Rear camera preview">
          <DocumentGuide kind={kind} side={at} />
        </CameraView>
      )}
      <NoticeBox />
      <div class="actions">
        {!failed && (
          <button type="button" class="button" onClick={take} disabled={state.status !== 'live'}>
            Take photo
          </button>
        )}
        <PhotoPicker
          label={failed ? 'Take or choose a photo' : 'Choose a photo instead'}
          capture="environment"
          primary={failed}
          onFile={choose}
        />
        <button type="button" class="button link-button" onClick={() => startOver(null)}>
          Use a different document
        </button>
      </div>
    </>
  );
}
