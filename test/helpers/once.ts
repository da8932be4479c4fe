/**
 * `npm test` runs on the embedded database, and CI runs it again on PostgreSQL (README, "Test").
 * Some tests' subject never meets the store of the run: the document reader and its worker
 * threads, servers started on an embedded DATA_DIR of their own, and the consoles and the capture
 * page in a browser (every API call they make is tested over HTTP on both stores). They run once,
 * in the embedded run, where they give the same answer as in the other; the second run would
 * spend about a fifth of its time on them and test nothing new. `TEST_EVERYTHING_ON_POSTGRES=1`
 * runs them on PostgreSQL too.
 */
export function skippedOnPostgres(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.DATABASE_URL) && env.TEST_EVERYTHING_ON_POSTGRES !== '1';
}
