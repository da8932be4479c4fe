import type { Signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { navigate } from './lib.js';
import { ActionForm, Link, Shell } from './ui.js';

/**
 * A console's own links and its "Sign out", which forgets the tab's credential and returns to
 * the console's start (where its sign-in asks again).
 */
export function ConsoleNav({
  links,
  credential,
  home,
}: {
  links: [href: string, label: string][];
  credential: Signal<string | null>;
  home: string;
}) {
  return (
    <>
      {links.map(([href, label]) => (
        <Link key={href} href={href}>
          {label}
        </Link>
      ))}
      <button type="button" class="link" onClick={() => ((credential.value = null), navigate(home))}>
        Sign out
      </button>
    </>
  );
}

/**
 * A console's sign-in: the credential is tried against the server first (`check` throws the
 * server's message on refusal) and only then kept for this browser tab.
 */
export function SignIn({
  title,
  intro,
  label,
  inputId,
  credential,
  check,
}: {
  title: string;
  intro: ComponentChildren;
  label: string;
  inputId: string;
  credential: Signal<string | null>;
  check: (token: string) => Promise<unknown>;
}) {
  const [value, setValue] = useState('');
  return (
    <Shell title={title}>
      <p>{intro} It is kept in this browser tab only.</p>
      <ActionForm
        label={title}
        submit="Sign in"
        action={async () => {
          const token = value.trim();
          await check(token);
          credential.value = token;
        }}
      >
        <label for={inputId}>{label}</label>
        <input id={inputId} type="password" autocomplete="off" required value={value} onInput={(e) => setValue(e.currentTarget.value)} />
      </ActionForm>
    </Shell>
  );
}
