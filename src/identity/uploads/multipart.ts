import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { unstorableTextReason } from '../../lib/storable-text.js';
import { IdentityError, identityErrors as errors, multipartError } from '../errors.js';
import type { StoredImage } from './inspect.js';

/** One multipart capture request as the service receives it: its text fields and its stored file(s). */
export interface CaptureForm {
  fields: Record<string, string>;
  image: StoredImage;
  /** The other side of an ID card (field `back`), where the route takes one. */
  back?: StoredImage;
}

/** Where the file of a capture form goes, and how it is removed again when the request is refused. */
export interface UploadSink {
  store(file: Readable): Promise<StoredImage>;
  discard(image: StoredImage): Promise<void>;
  /** Runs when the file part arrives, with the fields sent before it: refuse early without reading the file. */
  beforeFile?(fields: Record<string, string>): Promise<void>;
  /** Whether the form may carry a second file in the field `back`. */
  takesBack?: boolean;
}

/**
 * Walks a multipart body in whatever order its parts come: text fields are collected, the file
 * (field `file`, and `back` where the sink takes one) is streamed through `sink.store` as it
 * arrives. If anything fails after a file was stored, the stored blobs are discarded before the
 * error goes on.
 */
export async function readCaptureForm(req: FastifyRequest, sink: UploadSink): Promise<CaptureForm> {
  if (!req.isMultipart()) throw errors.notMultipart();
  const fields: Record<string, string> = {};
  let image: StoredImage | undefined;
  let back: StoredImage | undefined;
  let storing = false;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const isBack = part.fieldname === 'back' && sink.takesBack === true;
        if ((part.fieldname !== 'file' && !isBack) || (isBack ? back : image)) {
          part.file.resume();
          throw sink.takesBack ? errors.documentFilesOnly() : errors.oneFileOnly();
        }
        await sink.beforeFile?.(fields);
        storing = true;
        const stored = await sink.store(part.file);
        if (isBack) back = stored;
        else image = stored;
        storing = false;
      } else {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        // Form fields bypass the route validator, so they get the same storable-text check here.
        const unstorable = unstorableTextReason(part.fieldname) ?? unstorableTextReason(value);
        // eslint-disable-next-line no-control-regex -- replacing NUL is the point
        if (unstorable) throw errors.fieldUnstorable(part.fieldname.replace(/[\u0000\ud800-\udfff]/g, '\ufffd'), unstorable);
        fields[part.fieldname] = value;
      }
    }
  } catch (err) {
    for (const stored of [image, back]) if (stored) await sink.discard(stored).catch(() => {});
    // Refusals and storage failures keep their status, the multipart plugin's limits answer as
    // the catalogue says; anything else broke while parsing the body.
    if (err instanceof IdentityError || storing) throw err;
    throw multipartError(err) ?? errors.multipartMalformed();
  }
  if (!image) {
    if (back) await sink.discard(back).catch(() => {});
    throw errors.fileMissing();
  }
  return back ? { fields, image, back } : { fields, image };
}
