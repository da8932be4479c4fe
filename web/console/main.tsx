import { render } from 'preact';
import './style.css';
import { adminToken, reviewerKey, route } from './lib.js';
import { OperatorSignIn, Profile, Profiles } from './operator.js';
import { DeliveryDetail, VerificationDetail } from './operator/verification.js';
import { Overview } from './overview.js';
import { ReviewCase, ReviewerSignIn, ReviewQueue } from './reviewer.js';
import { Link, Shell } from './ui.js';

function Home() {
  return (
    <Shell title="Partner services console">
      <div class="cards">
        <Link class="card" href="/console/review">
          <strong>Reviewer</strong>
          <span>Decide verifications waiting in manual review. Sign in with a reviewer API key.</span>
        </Link>
        <Link class="card" href="/console/operator">
          <strong>Operator</strong>
          <span>Profiles, API keys, webhooks, events, verifications and governance. Sign in with ADMIN_TOKEN.</span>
        </Link>
      </div>
    </Shell>
  );
}

function NotFound() {
  return (
    <Shell title="Page not found">
      <p>
        <Link href="/console/">Back to the start</Link>
      </p>
    </Shell>
  );
}

/** The console's pages by path; the server answers index.html for every path under /console/. */
function App() {
  const parts = route.value
    .replace(/^\/console\/?/, '')
    .split('/')
    .filter(Boolean);
  const [area, a, b, c, d] = parts;
  if (!area) return <Home />;
  if (area === 'review') {
    if (!reviewerKey.value) return <ReviewerSignIn />;
    return a ? <ReviewCase id={a} /> : <ReviewQueue />;
  }
  if (area === 'operator') {
    if (!adminToken.value) return <OperatorSignIn />;
    if (a === 'profiles' && b && c === 'verifications' && d) return <VerificationDetail profileId={b} id={d} />;
    if (a === 'deliveries' && b) return <DeliveryDetail id={b} />;
    if (a === 'profiles' && b) return <Profile id={b} tab={c ?? 'keys'} />;
    if (a === 'overview') return <Overview />;
    return <Profiles />;
  }
  return <NotFound />;
}

render(<App />, document.getElementById('app')!);
