import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * The screen's title. It takes the focus when it changes, so a screen reader announces the new
 * screen instead of staying on a button that is gone.
 */
export function Heading({ children, step }: { children: ComponentChildren; step?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const text = typeof children === 'string' ? children : '';
  useEffect(() => {
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
