import { ConsoleNav, SignIn } from './sign-in.js';
import { client, reviewerKey, unwrap } from './lib.js';

/** The reviewer's bar: the queue, and signing out. */
export function ReviewerNav() {
  return <ConsoleNav links={[['/console/review', 'Queue']]} credential={reviewerKey} home="/console/review" />;
}

export function ReviewerSignIn() {
  return (
    <SignIn
      title="Reviewer sign-in"
      intro={
        <>
          Sign in with an identity <strong>reviewer</strong> API key.
        </>
      }
      label="Reviewer API key"
      inputId="reviewer-key"
      credential={reviewerKey}
      check={(token) => unwrap(client(token).GET('/v1/review'))}
    />
  );
}
