// What the browser app (web/, built by Vite, run in the person's browser) may import from src/:
// only what the capture page and the server must agree on, so the two cannot drift apart. Each
// module is pure — it imports nothing but types — so it bundles for the browser without the
// server's libraries. `npm run lint:imports` (.dependency-cruiser.cjs) holds web/ to this list
// and the list to that purity; `npm start` rebuilds the web app when one of them changes
// (scripts/build-stamp.mjs).
module.exports = [
  // The smallest photo the server accepts: the page checks a photo against it before sending.
  'src/identity/upload-limits.ts',
  // The capture page's languages: the server picks one from Accept-Language, the page from navigator.languages.
  'src/plugins/capture-languages.ts',
  // The challenge's instruction codes, which the page words in each language.
  'src/identity/capture/instructions.ts',
  // The face detector's settings, the same in the browser (pose guidance) and on the server (the decision).
  'src/recognition/faces/human-config.ts',
  // The pose rule: the page guides the person by the rule the server decides by.
  'src/identity/face-rules.ts',
  // The head poses and the face analysis's shapes the pose rule is written over.
  'src/recognition/faces/signals.ts',
];
