import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ConfirmDialog, type Consequence } from './confirm.js';
import { useAction } from './ui.js';

/**
 * The console's button for an action on one thing (publish, revoke, redeliver): its click runs
 * `action`, then `reload` (the list it changed) once it succeeded. With `confirm` the action is
 * destructive and asks first, naming what will happen, and runs only when confirmed. Its error
 * appears next to it, and `done` (what happened, in words) once it succeeded, so a click never
 * passes without an answer.
 */
export function ActionButton({
  action,
  reload,
  confirm,
  children,
  label,
  done,
}: {
  action: () => Promise<unknown>;
  reload?: () => void;
  confirm?: Consequence;
  children: ComponentChildren;
  label?: string;
  done?: string;
}) {
  const [asking, setAsking] = useState(false);
  const { busy, error, run, ...result } = useAction(async () => {
    await action();
    reload?.();
  });
  return (
    <span class="action">
      <button type="button" aria-label={label} disabled={busy} onClick={() => (confirm ? setAsking(true) : void run())}>
        {children}
      </button>
      {confirm && asking && (
        <ConfirmDialog
          consequence={confirm}
          onClose={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            void run();
          }}
        />
      )}
      {done && result.done && (
        <span class="done" role="status">
          {done}
        </span>
      )}
      {error && (
        <span class="error inline" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
