import { useEffect, useRef } from 'preact/hooks';

/**
 * The reviewer's one-key shortcuts (j, k, a, d, Enter): `handler` sees every key pressed on the
 * page except those with Alt, Ctrl or Meta, which belong to the browser.
 */
export function useShortcuts(handler: (e: KeyboardEvent) => void) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const listen = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      ref.current(e);
    };
    window.addEventListener('keydown', listen);
    return () => window.removeEventListener('keydown', listen);
  }, []);
}

/** Whether the key went into a field: there a letter is text, not a command. */
export const typingInField = (e: KeyboardEvent) => {
  const t = e.target as HTMLElement | null;
  return !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');
};
