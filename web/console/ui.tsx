import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { navigate, type Loaded } from './lib.js';

/** An in-app link: a real <a href> (keyboard, middle-click) that navigates without a reload. */
export function Link({ href, children, ...rest }: JSX.HTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a
      {...rest}
      href={href}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

/** The page's own heading: focused after an action moves the reader to another screen. */
const PAGE_HEADING_ID = 'page-title';

/** Moves focus to the page's heading (it is focusable by script only, never by Tab). */
export function focusPageHeading(): void {
  document.getElementById(PAGE_HEADING_ID)?.focus();
}

/** A console page: the bar with `nav`, the heading `title`, and the tab's title (`documentTitle`, else `title`). */
export function Shell({
  title,
  documentTitle = title,
  nav,
  children,
}: {
  title: string;
  documentTitle?: string;
  nav?: ComponentChildren;
  children: ComponentChildren;
}) {
  // The tab's title follows the screen, so history, tabs and screen readers name the page.
  useEffect(() => {
    document.title = `${documentTitle} — Partner services console`;
  }, [documentTitle]);
  return (
    <>
      <header class="bar">
        <Link href="/console/" class="brand">
          Partner services
        </Link>
        <nav aria-label="Main">{nav}</nav>
      </header>
      <main id="main">
        <h1 id={PAGE_HEADING_ID} tabIndex={-1}>
          {title}
        </h1>
        {children}
      </main>
    </>
  );
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      {label}
    </p>
  );
}

export function ErrorNote({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <div class="error" role="alert">
      <span>{message}</span>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Notice({ children, kind = 'info' }: { children: ComponentChildren; kind?: 'info' | 'ok' | 'warn' }) {
  return (
    <div class={`notice ${kind}`} role="status">
      {children}
    </div>
  );
}

/** Loading, then the error with a retry, then the content. */
export function Async<T>({ state, children }: { state: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (state.error) return <ErrorNote message={state.error} retry={state.reload} />;
  if (state.data === undefined) return <Spinner />;
  return <>{children(state.data)}</>;
}

/** A secret shown once with a copy button; `link` shows it as a link that opens in a new tab (a capture link). */
export function ShownOnce({
  label,
  value,
  onDone,
  link = false,
  children,
}: {
  label: string;
  value: string;
  onDone: () => void;
  link?: boolean;
  /** More ways to hand it over (a QR code), under the value. */
  children?: ComponentChildren;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="notice warn once" role="status">
      <p>
        <strong>{label}</strong> — copy it now: it is shown only once.
      </p>
      <code class="secret" data-testid="secret">
        {link ? (
          <a href={value} target="_blank" rel="noopener noreferrer">
            {value}
          </a>
        ) : (
          value
        )}
      </code>
      {children}
      <div class="row">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </div>
  );
}

/** Runs `action` once at a time: `busy` while it runs, its error message (as the server wrote it) after a failure. */
export function useAction(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** Whether the last run succeeded (false again once another starts). */
  const [done, setDone] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      await action();
      setDone(true);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, done, run };
}

/** A form whose submit runs `action`, shows its error as the server wrote it and disables itself meanwhile. */
export function ActionForm({
  label,
  action,
  children,
  submit,
}: {
  label: string;
  action: () => Promise<void>;
  children?: ComponentChildren;
  submit: string;
}) {
  const { busy, error, run } = useAction(action);
  return (
    <form
      class="form"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
    >
      {children}
      <button type="submit" disabled={busy}>
        {busy ? 'Working…' : submit}
      </button>
      {error && <ErrorNote message={error} />}
    </form>
  );
}
