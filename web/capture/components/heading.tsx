import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { language } from '../i18n/language.js';

/**
 * The screen's title. It takes the focus when it changes, so a screen reader announces the new
 * screen instead of staying on a button that is gone; but not when only the language changed,
 * where the focus stays on the language switcher that was just used.
 */
export function Heading({ children, step }: { children: ComponentChildren; step?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const shownIn = useRef(language.value);
  const text = typeof children === 'string' ? children : '';
  useEffect(() => {
    if (shownIn.current !== language.value) {
      shownIn.current = language.value;
      return;
    }
    ref.current?.focus({ preventScroll: true });
  }, [text, step]);
  return (
    <header>
      {step && <p class="step">{step}</p>}
      <h1 ref={ref} tabIndex={-1}>
        {children}
      </h1>
    </header>
  );
}
