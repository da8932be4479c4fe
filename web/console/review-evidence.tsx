import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../shared/api.js';
import { trapTab } from './focus-trap.js';
import { client, imageDataUrl, reviewerKey, useLoad, type Loaded } from './lib.js';
import { ErrorNote, Spinner } from './ui.js';

/** One image of the case: its caption, where the reviewer key fetches it, and what it shows (alt text). */
export interface EvidenceImage {
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

/**
 * The case's images as data: URLs, each fetched once per case page: every fetch is an audited
 * view (docs/consoles.md, "Reviewer console"), and the face comparison and the document row show the same
 * images. Forgotten when another case opens, so no earlier person's image stays in memory.
 */
const fetched = new Map<string, Promise<string>>();
export const forgetCaseImages = () => fetched.clear();

function caseImage(api: ApiClient, url: string): Promise<string> {
  let image = fetched.get(url);
  if (!image) {
    image = imageDataUrl(api, url);
    // A failed fetch is tried again on "Try again", not answered from the cache.
    image.catch(() => fetched.delete(url));
    fetched.set(url, image);
  }
  return image;
}

/** One image of the case, loaded through the reviewer key (null without a URL: never uploaded). */
export function useCaseImage(url: string | null) {
  const api = useMemo(() => client(reviewerKey.value), []);
  return useLoad(() => (url ? caseImage(api, url) : Promise.resolve(null)), [url]);
}

/** `children` (an image or its crop) as a button that opens `image` full size in the zoom dialog. */
export function Zoomable({ image, src, children }: { image: EvidenceImage; src: string; children: ComponentChildren }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class="zoomable" onClick={() => setOpen(true)} aria-label={`${image.caption}: open full size`}>
        {children}
      </button>
      {open && <ZoomDialog image={image} src={src} onClose={() => setOpen(false)} />}
    </>
  );
}

/** What an image's place shows before it is there: not uploaded, its error with a retry, or loading. */
export function ImagePending({ url, state }: { url: string | null; state: Pick<Loaded<unknown>, 'error' | 'reload'> }) {
  if (!url) return <p class="missing">Not uploaded</p>;
  if (state.error) return <ErrorNote message={state.error} retry={state.reload} />;
  return <Spinner label="Loading image…" />;
}

function EvidenceFigure({ image }: { image: EvidenceImage }) {
  const state = useCaseImage(image.url);
  return (
    <figure>
      <figcaption>
        {image.caption}
        {image.size && <span class="muted"> ({image.size})</span>}
      </figcaption>
      {state.data ? (
        <Zoomable image={image} src={state.data}>
          <img src={state.data} alt={image.alt} />
        </Zoomable>
      ) : (
        <ImagePending url={image.url} state={state} />
      )}
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
