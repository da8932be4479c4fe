import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** How long a connection may keep sending the rest of a refused body before it is cut. */
const UNREAD_BODY_GRACE_MS = 5_000;

/**
 * An answer can leave before its request body was read: a 401 from a hook, a 409 or 422 from
 * the upload handler after the first form fields, a 413 or 415 from the image inspector, the
 * framework's own 413 for a JSON body over the limit. The unread rest must not stay on the
 * socket: a keep-alive client sends its next request behind it, and the server, still inside
 * the first body (paused), would never answer. Two ways out, chosen per request:
 *
 * - a rest that fits the route's body limit is drained (read and dropped) after the answer, so
 *   the connection is reused; a rest that keeps coming past the limit or the grace period cuts it;
 * - a larger rest (or one of unknown length) gets `Connection: close`, and the socket is closed
 *   only after the answer was flushed, while the client's remaining bytes are still read and
 *   dropped for a grace period (a lingering close, as nginx does): closing a socket with unread
 *   input makes the kernel reset it, and a client still writing then sees EPIPE instead of the answer.
 */
export function closeUnreadBodies(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply) => {
    if (req.raw.complete || req.raw.readableEnded || req.raw.destroyed) return;
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return;
    const socket = req.raw.socket;
    if (!socket || socket.destroyed) return;
    const rest = Number(req.headers['content-length']);
    const limit = req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
    if (Number.isFinite(rest) && rest <= limit && !closing(reply)) drain(req, socket, limit);
    else lingerOnClose(req, reply, socket);
  });
}

function closing(reply: FastifyReply): boolean {
  return String(reply.getHeader('connection') ?? '').toLowerCase() === 'close';
}

/** Reads and drops what is left of the body, so the next request on this connection is parsed. */
function discardBody(req: FastifyRequest): { bytes: () => number } {
  let bytes = 0;
  const raw = req.raw;
  // A multipart parser may still be attached, paused by its own backpressure.
  raw.unpipe();
  raw.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  raw.on('error', () => {});
  raw.resume();
  return { bytes: () => bytes };
}

function drain(req: FastifyRequest, socket: Socket, limit: number): void {
  const seen = discardBody(req);
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, UNREAD_BODY_GRACE_MS);
  timer.unref();
  const watch = () => {
    if (seen.bytes() > limit) cut();
  };
  req.raw.on('data', watch);
  req.raw.once('end', () => clearTimeout(timer));
  req.raw.once('close', () => clearTimeout(timer));
}

function lingerOnClose(req: FastifyRequest, reply: FastifyReply, socket: Socket): void {
  reply.header('connection', 'close');
  discardBody(req);
  // With `Connection: close` Node ends the response by calling destroySoon(), which destroys the
  // socket as soon as the answer is written; here it only half-closes (FIN after the answer) and
  // keeps reading until the client closes its side or the grace period ends.
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.destroyed) return;
    const timer = setTimeout(() => this.destroy(), UNREAD_BODY_GRACE_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.once('end', () => this.destroy());
    this.on('error', () => this.destroy());
    this.end();
    this.resume();
  };
}
