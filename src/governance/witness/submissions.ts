import type { FastifyBaseLogger } from 'fastify';
import type { LogWitness } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Job, JobOutcome, JobQueue } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { splitNote, verifyCosignature } from '../../lib/signed-note.js';
import type { TransparencyLog } from '../transparency-log.js';
import type { WitnessClient } from './client.js';
import { addCheckpointBody, readConflictSize, SIZE_MEDIA_TYPE } from './protocol.js';
import * as repo from './repo.js';

/** The job kind of a submission (src/jobs/kinds.ts). */
export const WITNESS_QUEUE = 'governance.witness';

/** Retries of an unanswered submission: 5 s, 10 s, 20 s … at most 10 minutes apart. */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 600_000;
/** A witness that does not know the log (404) or trust its key (403) waits for its operator: ask again hourly. */
const UNCONFIGURED_RETRY_MS = 3_600_000;
/** 409 answers followed in one run (each names the size the witness holds); more means the witness moves under us. */
const MAX_CONFLICTS = 3;

export const retryDelayMs = (attempt: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), MAX_RETRY_MS);

/**
 * Witnessing of the transparency log (docs/governance.md, "Witnesses"; C2SP `tlog-witness`): each new
 * checkpoint of a profile queues one job per witness in LOG_WITNESSES (one waiting job per pair:
 * it takes the newest checkpoint when it runs). A run sends that checkpoint with the consistency
 * proof from the last size the witness cosigned (or the size its 409 names), checks the
 * cosignature against the configured key and keeps it. A witness that is down delays nothing:
 * its job is retried with growing delays, and when it answers again it gets the newest
 * checkpoint with a proof from the size it last saw.
 */
export function createWitnessSubmissions(deps: {
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  log: TransparencyLog;
  witnesses: LogWitness[];
  client: WitnessClient;
  logger: FastifyBaseLogger;
}) {
  const { db, clock, jobs, log, client, logger } = deps;
  const byName = new Map(deps.witnesses.map((w) => [w.name, w]));
  const later = (ms: number) => new Date(clock.now().getTime() + ms);

  /** Queues the profile's newest checkpoint for every witness, unless a job for the pair waits already. */
  async function checkpointGrew(profileId: string): Promise<void> {
    await Promise.all(
      deps.witnesses.map((w) =>
        jobs.enqueue(WITNESS_QUEUE, { profileId, witness: w.name }, { key: `witness:${w.name}`, unlessPending: true }),
      ),
    );
  }

  /** At start: every log a witness has not cosigned at its current size gets its job (one lost to a crash after a seal too). */
  async function catchUp(): Promise<void> {
    for (const w of deps.witnesses) {
      for (const profileId of await repo.logsAheadOf(db, w.name)) {
        await jobs.enqueue(WITNESS_QUEUE, { profileId, witness: w.name }, { key: `witness:${w.name}`, unlessPending: true });
      }
    }
  }

  async function submit(job: Job<{ profileId: string; witness: string }>): Promise<JobOutcome> {
    const { profileId } = job.payload;
    const witness = byName.get(job.payload.witness);
    // Taken out of LOG_WITNESSES since the job was queued: nothing to do.
    if (!witness) return { done: true };
    const newest = await log.signedCheckpoint(profileId);
    const size = newest.tree_size;
    if (size === 0) return { done: true };
    const context = { witness: witness.name, profileId, treeSize: size };
    const retry = (error: string, ms = retryDelayMs(job.attempt), keyFailed = false): JobOutcome => {
      logger.warn({ ...context, error, retryInMs: ms }, 'witness submission failed; trying again later');
      return { retryAt: later(ms), error, keyFailed };
    };
    const refuse = (error: string): JobOutcome => {
      logger.error({ ...context, error }, 'witness refused the checkpoint');
      return { fail: error };
    };
    let old = await repo.lastCosignedSize(db, profileId, witness.name);
    if (old === size) return { done: true };
    for (let conflicts = 0; ;) {
      if (old > size)
        return refuse(`the witness has cosigned size ${old}, larger than the log's ${size}: records were lost or the log forked`);
      const proof = old === 0 || old === size ? [] : (await log.consistencyProof(profileId, old, size)).proof;
      const answer = await client.addCheckpoint(witness.url, addCheckpointBody(old, proof, newest.checkpoint));
      if ('error' in answer) return retry(`no answer: ${answer.error}`, undefined, true);
      if (answer.status === 200) {
        const note = splitNote(`${newest.checkpoint}${answer.text}`);
        const body = newest.checkpoint.slice(0, newest.checkpoint.indexOf('\n\n') + 1);
        // Lines of other keys are ignored (C2SP tlog-witness); one of the configured key must verify.
        const mine = note?.signatures.find((s) => verifyCosignature(body, s, witness) !== null);
        if (!mine) return retry('the answer holds no cosignature that verifies with the configured key');
        await repo.saveCosignature(db, {
          profileId,
          witness: witness.name,
          treeSize: size,
          cosignedAt: verifyCosignature(body, mine, witness)!,
          signature: mine.bytes.toString('base64'),
          createdAt: clock.now(),
        });
        logger.info({ ...context, old }, 'witness cosigned the checkpoint');
        return { done: true };
      }
      if (answer.status === 409) {
        const known = answer.type === SIZE_MEDIA_TYPE ? readConflictSize(answer.text) : null;
        if (known === null) return retry('409 without a text/x.tlog.size body');
        // The witness holds this very size with another root: it saw a different tree.
        if (known === old) return refuse(`the witness holds a different tree of size ${old}: a fork`);
        conflicts += 1;
        if (conflicts > MAX_CONFLICTS) return retry(`the witness answered 409 ${conflicts} times in a row`);
        old = known;
        continue;
      }
      if (answer.status === 403 || answer.status === 404) {
        return retry(
          `${answer.status}: the witness does not ${answer.status === 404 ? 'know the log' : 'trust the log key'} ${newest.origin}`,
          UNCONFIGURED_RETRY_MS,
        );
      }
      if (answer.status === 400 || answer.status === 422) return refuse(`${answer.status}: ${answer.text.trim().slice(0, 200)}`);
      return retry(`answered ${answer.status}`, undefined, answer.status >= 500);
    }
  }

  function register(): void {
    jobs.handle(WITNESS_QUEUE, submit);
  }

  return { checkpointGrew, catchUp, register, submit };
}

export type WitnessSubmissions = ReturnType<typeof createWitnessSubmissions>;
