import { announcement, screen } from '../flow.js';
import { checkerState } from '../pose/checker.js';
import { ChallengeScreen } from './challenge-screen.js';
import { DocumentScreen } from './document-screen.js';
import { Done, Expired, Handoff, Intro, Loading, NoLink } from './screens.js';

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
    case 'done':
      return <Done />;
  }
}

export function App() {
  return (
    <>
      <main data-screen={screen.value.name} data-pose-check={checkerState.value.status}>
        <Current />
      </main>
      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement.value}
      </p>
    </>
  );
}
