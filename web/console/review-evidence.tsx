import { trapTab } from './focus-trap.js';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { client, imageDataUrl, reviewerKey, useLoad } from './lib.js';
import { ErrorNote, Spinner } from './ui.js';

/** One image of the case: its caption, where the reviewer key fetches it, and what it shows (alt text). */
interface EvidenceImage {
  key: string;
  caption: string;
  url: string | null;
  alt: string;
  size: string | null;
}

/** The image at full size in a modal dialog; Escape or Close returns focus to the image that opened it. */
function ZoomDialog({ image, src, onClose }: { image: EvidenceImage; src: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [actual, setActual] = useState(false);
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class="zoom"
      aria-label={image.caption}
      onKeyDown={(e) => trapTab(e, e.currentTarget)}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div class="row zoom-bar">
        <strong>{image.caption}</strong>
        <button type="button" onClick={() => setActual((a) => !a)}>
          {actual ? 'Fit to the screen' : 'Actual size'}
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <div class={actual ? 'zoom-view actual' : 'zoom-view'}>
        <img src={src} alt={image.alt} />
      </div>
    </dialog>
  );
}

function EvidenceFigure({ image }: { image: EvidenceImage }) {
  const api = useMemo(() => client(reviewerKey.value), []);
  const state = useLoad(() => (image.url ? imageDataUrl(api, image.url) : Promise.resolve(null)), [image.url]);
  const [open, setOpen] = useState(false);
  let body;
  if (!image.url) body = <p class="missing">Not uploaded</p>;
  else if (state.error) body = <ErrorNote message={state.error} retry={state.reload} />;
  else if (!state.data) body = <Spinner label="Loading image…" />;
  else
    body = (
      <button type="button" class="zoomable" onClick={() => setOpen(true)} aria-label={`${image.caption}: open full size`}>
        <img src={state.data} alt={image.alt} />
      </button>
    );
  return (
    <figure>
      <figcaption>
        {image.caption}
        {image.size && <span class="muted"> ({image.size})</span>}
      </figcaption>
      {body}
      {open && state.data && <ZoomDialog image={image} src={state.data} onClose={() => setOpen(false)} />}
    </figure>
  );
}

/** The document and every frame side by side, large; each opens full size by click or keyboard. */
export function Evidence({ images }: { images: EvidenceImage[] }) {
  return (
    <div class="gallery">
      {images.map((image) => (
        <EvidenceFigure key={image.key} image={image} />
      ))}
    </div>
  );
}
