// Writes dist/pglite-template.tgz (src/db/pglite-template.ts): the migrated, empty embedded
// database a fresh DATA_DIR starts from. Run after `npm run build`, by prepare, start and the Dockerfile.
const { writePgliteTemplate } = await import('../dist/db/write-pglite-template.js');
await writePgliteTemplate();
