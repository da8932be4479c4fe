import { useEffect, useRef, useState } from 'preact/hooks';
import { canvasToJpeg, fileToCanvas, snapshot, UnreadableImage } from '../camera.js';
import { notice, progress, sendDocument, waitSeconds } from '../flow.js';
import { phrase, type PlainKey } from '../i18n/catalogue.js';
import { say, t } from '../i18n/language.js';
import { DOCUMENT_PROBLEM } from '../messages.js';
import { judgeDocument, measureDocument } from '../quality/document-check.js';
import { CAMERA_PROBLEM, CameraView, PhotoPicker, useCamera } from './camera-view.js';
import { DocumentGuide, DocumentIcon, SIDES, type DocumentKind, type DocumentSide } from './document-guide.js';
import { Heading } from './heading.js';
import { NoticeBox, UploadProgress } from './notice.js';

type Photo = { blob: Blob; url: string };
type Photos = Partial<Record<DocumentSide, Photo>>;

/**
 * What each side asks for, in plain words ("the lines of letters and <<<" is how a person sees the
 * machine-readable zone), and its preview's description (a card's front is checked before going on, the last side before sending).
 */
const SHOOT: Record<DocumentKind, Partial<Record<DocumentSide, { title: PlainKey; text: PlainKey; preview: PlainKey }>>> = {
  passport: {
    front: { title: 'document.passport_title', text: 'document.passport_text', preview: 'document.preview_passport' },
  },
  id_card: {
    front: { title: 'document.card_front_title', text: 'document.card_front_text', preview: 'document.preview_card_front_next' },
    back: { title: 'document.card_back_title', text: 'document.card_back_text', preview: 'document.preview_card_back' },
  },
};

const stepLabel = (kind: DocumentKind, side: DocumentSide) =>
  kind === 'id_card' ? t('document.step_card', { photo: SIDES.id_card.indexOf(side) + 1 }) : t('document.step');

/** The first question of step 1: which document, since a card needs both of its sides. */
function ChooseDocument({ onChoose }: { onChoose: (kind: DocumentKind) => void }) {
  return (
    <>
      <Heading step={t('document.step')}>{t('document.choose')}</Heading>
      <p>{t('document.choose_text')}</p>
      <div class="actions document-choice">
        <button type="button" class="button secondary choice" onClick={() => onChoose('passport')}>
          <DocumentIcon kind="passport" />
          <span>
            {t('document.passport')}
            <span class="choice-hint">{t('document.passport_hint')}</span>
          </span>
        </button>
        <button type="button" class="button secondary choice" onClick={() => onChoose('id_card')}>
          <DocumentIcon kind="id_card" />
          <span>
            {t('document.id_card')}
            <span class="choice-hint">{t('document.id_card_hint')}</span>
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
   * Checks the very pixels that would be sent (size, outline, sharpness, glare — docs/identity.md, "Checks
   * before sending"); a photo that fails is not kept, and the person is told why and asked again.
   */
  const keep = async (canvas: HTMLCanvasElement) => {
    notice.value = null;
    const ctx = canvas.getContext('2d');
    const problem = ctx ? judgeDocument(measureDocument(ctx.getImageData(0, 0, canvas.width, canvas.height))) : null;
    if (problem) {
      notice.value = { kind: 'retake', message: phrase('document.not_used', { reason: DOCUMENT_PROBLEM[problem] }) };
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
      notice.value = { kind: 'retake', message: phrase('camera.no_picture') };
    }
  };
  const choose = async (file: File) => {
    try {
      await keep(await fileToCanvas(file));
    } catch (err) {
      notice.value = {
        kind: 'retake',
        message: phrase(err instanceof UnreadableImage ? 'document.not_a_photo' : 'photo.not_prepared'),
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
        <Heading step={stepLabel(kind, side)}>{t(kind === 'id_card' && last ? 'document.check_both' : 'document.check_one')}</Heading>
        <p>
          {t('document.check_question')}
          {side === 'back' || kind === 'passport' ? ` ${t('document.check_zone')}` : ''}
        </p>
        {kind === 'id_card' && last && photos.front ? (
          <div class="preview-pair">
            <figure>
              <img class="preview" src={photos.front.url} alt={t('document.preview_card_front')} />
              <figcaption>{t('document.front')}</figcaption>
            </figure>
            <figure>
              <img class="preview" src={pending.url} alt={t('document.preview_card_back')} />
              <figcaption>{t('document.back')}</figcaption>
            </figure>
          </div>
        ) : (
          <img class="preview" src={pending.url} alt={t(words.preview)} />
        )}
        <NoticeBox retry={false} />
        <UploadProgress />
        <div class="actions">
          {last ? (
            <button type="button" class="button" onClick={send} disabled={sending || waiting}>
              {t(kind === 'id_card' ? 'document.send_both' : 'photo.send')}
            </button>
          ) : (
            <button type="button" class="button" onClick={useIt}>
              {t('document.use')}
            </button>
          )}
          <button type="button" class="button secondary" onClick={() => retakeSide(side)} disabled={sending}>
            {t(kind === 'id_card' && last ? 'document.retake_back' : 'document.retake')}
          </button>
          {kind === 'id_card' && last && (
            <button type="button" class="button secondary" onClick={() => startOver(kind)} disabled={sending}>
              {t('document.retake_front')}
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
      <Heading step={stepLabel(kind, at)}>{t(words.title)}</Heading>
      <p>{t(words.text)}</p>
      {failed ? (
        <p class="notice info">{say(CAMERA_PROBLEM[state.problem])}</p>
      ) : (
        <CameraView video={video} live={state.status === 'live'} label={t('camera.rear')}>
          <DocumentGuide kind={kind} side={at} />
        </CameraView>
      )}
      <NoticeBox />
      <div class="actions">
        {!failed && (
          <button type="button" class="button" onClick={take} disabled={state.status !== 'live'}>
            {t('photo.take')}
          </button>
        )}
        <PhotoPicker
          label={t(failed ? 'document.take_or_choose' : 'document.choose_instead')}
          capture="environment"
          primary={failed}
          onFile={choose}
        />
        <button type="button" class="button link-button" onClick={() => startOver(null)}>
          {t('document.different')}
        </button>
      </div>
    </>
  );
}
