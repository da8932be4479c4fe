import type { DbOrTx } from '../db/client.js';
import { identityErrors as errors } from './errors.js';
import * as repo from './repo.js';
import type { VerificationRow } from './repo.js';

/** One stored image of a verification: the document, its back, or the selfie frame of a step. */
export type CaseImage = 'document' | 'document-back' | number;

/**
 * The blob key of one image of a verification, for the reviewer's and the operator's image
 * routes alike; a 404 naming what is missing when it was never uploaded.
 */
export async function caseImageKey(tx: DbOrTx, v: VerificationRow, which: CaseImage): Promise<string> {
  if (which === 'document') {
    if (!v.documentBlob) throw errors.noDocumentImage();
    return v.documentBlob;
  }
  if (which === 'document-back') {
    if (!v.documentBackBlob) throw errors.noDocumentBack();
    return v.documentBackBlob;
  }
  const key = (await repo.framesOf(tx, v.id)).find((f) => f.step === which)?.blobKey;
  if (!key) throw errors.noSelfieFrame(which);
  return key;
}
