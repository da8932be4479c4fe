import { useEffect, useState } from 'preact/hooks';
import { fileToJpeg, grabFrame, UnreadableImage } from '../camera.js';
import { notice, progress, sendDocument, waitSeconds } from '../flow.js';
import { CAMERA_PROBLEM, CameraView, DocumentGuide, PhotoPicker, useCamera } from './camera-view.js';
import { Heading } from './heading.js';
import { NoticeBox, UploadProgress } from './notice.js';

type Photo = { blob: Blob; url: string };

/** Step 1: the identity document, through the rear camera or a photo file, checked in a preview before it is sent. */
export function DocumentScreen() {
  const [photo, setPhoto] = useState<Photo | null>(null);
  const { state, video } = useCamera('environment', !photo);
  const sending = progress.value !== null;
  const waiting = waitSeconds.value > 0;

  useEffect(() => () => photo && URL.revokeObjectURL(photo.url), [photo]);

  const keep = (blob: Blob) => {
    notice.value = null;
    setPhoto({ blob, url: URL.createObjectURL(blob) });
  };
  const take = async () => {
    if (video.current) keep(await grabFrame(video.current));
  };
  const choose = async (file: File) => {
    try {
      keep(await fileToJpeg(file));
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
  const send = async () => {
    if (photo && !(await sendDocument(photo.blob)) && notice.value?.kind === 'retake') setPhoto(null);
  };

  if (photo) {
    return (
      <>
        <Heading step="Step 1 of 2">Check the photo</Heading>
        <p>Are all four corners of the document in the picture, and is the text sharp and free of glare?</p>
        <img class="preview" src={photo.url} alt="The photo of your document, to check before sending" />
        <NoticeBox retry={false} />
        <UploadProgress />
        <div class="actions">
          <button type="button" class="button" onClick={send} disabled={sending || waiting}>
            Send this photo
          </button>
          <button type="button" class="button secondary" onClick={() => setPhoto(null)} disabled={sending}>
            Take it again
          </button>
        </div>
      </>
    );
  }

  const failed = state.status === 'failed';
  return (
    <>
      <Heading step="Step 1 of 2">Photograph your ID document</Heading>
      <p>Use your passport’s photo page or the front of your ID card. Lay it flat in good light and fit it inside the frame.</p>
      {failed ? (
        <p class="notice info">{CAMERA_PROBLEM[state.problem]}</p>
      ) : (
        <CameraView video={video} live={state.status === 'live'} label="Rear camera preview">
          <DocumentGuide />
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
      </div>
    </>
  );
}
