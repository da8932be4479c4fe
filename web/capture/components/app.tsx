import { useEffect } from 'preact/hooks';
import { announcement, screen } from '../flow.js';
import { checkerState } from '../pose/checker.js';
import { ChallengeScreen } from './challenge-screen.js';
import { DocumentScreen } from './document-screen.js';
import { LanguageSwitcher } from './language-switcher.js';
import { Declined, Done, Expired, Handoff, Intro, Loading, NoLink } from './screens.js';

function Current() {
  const s = screen.value;
  switch (s.name) {
    case 'loading':
      return <Loading />;
    case 'no-link':
      return <NoLink />;
    case 'expired':
      return <Expired />;
    case 'handoff':
      return <Handoff />;
    case 'intro':
      return <Intro />;
    case 'document':
      return <DocumentScreen />;
    case 'challenge':
      return <ChallengeScreen challenge={s.challenge} step={s.step} />;
    case 'declined':
      return <Declined />;
    case 'done':
      return <Done />;
  }
}

/** Marks the moment the first screen a person can act on is up (read by `npm run bench:capture`). */
let marked = false;
function markInteractive(name: string): void {
  if (marked || name === 'loading') return;
  marked = true;
  performance.mark('capture:interactive');
}

export function App() {
  useEffect(() => markInteractive(screen.value.name));
  return (
    <>
      <LanguageSwitcher />
      <main data-screen={screen.value.name} data-pose-check={checkerState.value.status}>
        <Current />
      </main>
      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement.value}
      </p>
    </>
  );
}
