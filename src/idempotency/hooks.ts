import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  errorCodes,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onSendHookHandler,
  type preParsingHookHandler,
} from 'fastify';
import { isKeptAnswer, KEY_HEADER, KEY_LEASE_MS, KEY_TTL_MS, parseIdempotencyKey, REPLAYED_HEADER, requestFingerprint } from './key.js';
import { keepAnswer, releaseKey, reserveKey, type KeyScope, type StoredAnswer } from './repo.js';

export type { StoredAnswer } from './repo.js';

/** How one API takes part: which of its routes honour the key, whose key it is, its error format. */
export interface IdempotentApi {
  /** Among the API's POST and PATCH routes (full URL as registered), those that honour the key. */
  honours(url: string): boolean;
  /** The caller the key belongs to, read after the API's authentication ran. */
  callerOf(req: FastifyRequest): string;
  /** The API's own errors: a malformed key, a key reused with another body (422), a key whose first request still runs (409). */
  invalidKey(message: string): Error;
  keyReused(): Error;
  keyInUse(): Error;
  /**
   * What of a kept answer is stored, and the record it concerns (deleting that record's answers
   * with `forgetAnswersOf`); the whole body and no record when absent. An answer that carries a
   * secret shown once must leave the secret out here and give it afresh in `completeReplay`.
   */
  keptPart?(req: FastifyRequest, body: Buffer): { body: Buffer; subject: string | null };
  /** Completes a stored answer before it is replayed (a secret left out is issued anew). */
  completeReplay?(req: FastifyRequest, answer: StoredAnswer): Promise<StoredAnswer>;
}

/** Marks an operation for the OpenAPI document (documentIdempotency completes it). */
export const IDEMPOTENT_OPERATION = 'x-idempotency-key';

declare module 'fastify' {
  interface FastifySchema {
    /** Set by useIdempotency on the routes that honour Idempotency-Key, for the document only. */
    [IDEMPOTENT_OPERATION]?: boolean;
  }
}

interface Held {
  scope: KeyScope;
  owner: string;
}

const held = new WeakMap<FastifyRequest, Held>();

/**
 * Honours Idempotency-Key on the API's POST and PATCH routes registered after this call (in
 * this scope and below). The key is taken right after the API's own authentication, rate limit
 * and scope checks, before anything else reads the request, so every later answer (a 404 of a
 * path record, a 400 of the body, the handler's own) is the one a retry gets back.
 */
export function useIdempotency(scope: FastifyInstance, api: IdempotentApi): void {
  const { db, clock } = scope;

  const takeKey: preParsingHookHandler = async (req, reply, payload) => {
    const header = req.headers[KEY_HEADER];
    if (header === undefined) return payload;
    const parsed = parseIdempotencyKey(header);
    if ('refused' in parsed) throw api.invalidKey(parsed.refused);
    const body = await readWholeBody(req, payload);
    const [path, query = ''] = splitUrl(req.url);
    const keyScope: KeyScope = { caller: api.callerOf(req), method: req.method, path, key: parsed.key };
    const owner = randomUUID();
    const now = clock.now();
    const taken = await reserveKey(db, keyScope, {
      fingerprint: requestFingerprint(query, body),
      owner,
      now,
      leaseUntil: new Date(now.getTime() + KEY_LEASE_MS),
      expiresAt: new Date(now.getTime() + KEY_TTL_MS),
    });
    switch (taken.outcome) {
      case 'reserved':
        held.set(req, { scope: keyScope, owner });
        return Readable.from(body.length > 0 ? [body] : [], { objectMode: false });
      case 'replay':
        replay(reply, api.completeReplay ? await api.completeReplay(req, taken.answer) : taken.answer);
        // Returning the reply (a thenable) ends the request here: the route never runs.
        return reply;
      case 'reused':
        throw api.keyReused();
      case 'in-use':
        reply.header('retry-after', '1');
        throw api.keyInUse();
    }
  };

  const settleKey: onSendHookHandler = async (req, reply, payload) => {
    const holding = held.get(req);
    if (!holding) return payload;
    held.delete(req);
    const body =
      typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : payload == null ? Buffer.alloc(0) : null;
    try {
      if (body && isKeptAnswer(reply.statusCode)) {
        const kept = api.keptPart ? api.keptPart(req, body) : { body, subject: null };
        const answer: StoredAnswer = { status: reply.statusCode, contentType: contentTypeOf(reply), body: kept.body };
        if (!(await keepAnswer(db, holding.scope, holding.owner, answer, kept.subject))) {
          req.log.warn('idempotency key taken over by a later request before this answer was kept');
        }
      } else {
        await releaseKey(db, holding.scope, holding.owner);
      }
    } catch (err) {
      // The answer goes out regardless; the key's lease frees it later.
      req.log.warn({ err }, 'could not settle the idempotency key');
    }
    return payload;
  };

  scope.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const hidden = Boolean((route.schema as { hide?: boolean } | undefined)?.hide);
    if (hidden || !methods.every((m) => m === 'POST' || m === 'PATCH') || !api.honours(route.url)) return;
    route.schema = { ...route.schema, [IDEMPOTENT_OPERATION]: true };
    route.preParsing = [takeKey, ...[route.preParsing ?? []].flat()];
    route.onSend = [...[route.onSend ?? []].flat(), settleKey];
  });
}

function splitUrl(url: string): [string, string?] {
  const at = url.indexOf('?');
  return at < 0 ? [url] : [url.slice(0, at), url.slice(at + 1)];
}

function contentTypeOf(reply: FastifyReply): string | null {
  const value = reply.getHeader('content-type');
  return value === undefined ? null : String(value);
}

function replay(reply: FastifyReply, answer: StoredAnswer): void {
  if (answer.contentType) reply.header('content-type', answer.contentType);
  reply.code(answer.status).header(REPLAYED_HEADER, 'true').send(answer.body);
}

/**
 * The request body, read here because the key compares bodies before the route sees one. The
 * route's body limit holds as in the framework's own parser: over it, the framework's 413.
 */
async function readWholeBody(req: FastifyRequest, payload: NodeJS.ReadableStream): Promise<Buffer> {
  const limit = req.routeOptions.bodyLimit ?? 1024 * 1024;
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      size += bytes.length;
      if (size > limit) {
        done();
        payload.pause();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      }
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks));
    };
    const onError = () => {
      done();
      reject(Object.assign(new Error('The request body could not be read'), { statusCode: 400 }));
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });
}
