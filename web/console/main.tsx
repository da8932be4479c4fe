import { render } from 'preact';
import '../shared/base.css';
import './style.css';
import { reviewerKey, route } from './lib.js';
import { OperatorConsole } from './operator/screens.js';
import { ReviewCase } from './review-case.js';
import { ReviewQueue } from './review-queue.js';
import { ReviewerSignIn } from './reviewer.js';
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
  const [area, a] = parts;
  if (!area) return <Home />;
  if (area === 'review') {
    if (!reviewerKey.value) return <ReviewerSignIn />;
    return a ? <ReviewCase id={a} /> : <ReviewQueue />;
  }
  if (area === 'operator') return <OperatorConsole path={parts.slice(1)} />;
  return <NotFound />;
}

render(<App />, document.getElementById('app')!);
