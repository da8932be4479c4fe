import type { ComponentChildren } from 'preact';
import { trapTab } from './focus-trap.js';
import { useEffect, useId, useRef } from 'preact/hooks';

/** What a confirmation dialog says: its question, what will happen, and the words of the button that does it. */
export interface Consequence {
  title: string;
  body: ComponentChildren;
  confirm: string;
}

/**
 * A modal confirmation on the browser's own <dialog>: while open the rest of the page is inert
 * (focus stays inside), Escape cancels, and focus goes back to the button that opened it.
 * Focus starts on Cancel, so a stray Enter does nothing destructive.
 */
export function ConfirmDialog({
  consequence,
  onConfirm,
  onClose,
}: {
  consequence: Consequence;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    cancel.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class="confirm"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onKeyDown={(e) => trapTab(e, e.currentTarget)}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{consequence.title}</h2>
      <div id={bodyId}>{consequence.body}</div>
      <div class="row">
        <button type="button" ref={cancel} onClick={onClose}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={onConfirm}>
          {consequence.confirm}
        </button>
      </div>
    </dialog>
  );
}
