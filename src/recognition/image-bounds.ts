/**
 * What the recognition engines decode and work on at most, whatever they are given: the pixel
 * bound of a decoded image and of every working copy (docs/identity.md, "Bounded identity work").
 */

/**
 * The most pixels an image may claim in its header (docs/security.md, "Security"): refused at upload, and
 * the bound sharp is given wherever images are decoded, so a small file cannot claim a huge canvas.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** The pixel bound as people read it: 40 (megapixels). */
export const MAX_IMAGE_MEGAPIXELS = MAX_IMAGE_PIXELS / 1_000_000;

/**
 * The most pixels any working copy of an image may have: every resize fits inside it, so no pass
 * enlarges an image into more memory than a few megabytes of samples.
 */
export const MAX_WORKING_PIXELS = 4_000_000;

/**
 * Resize options for a working copy `width` pixels wide at most `MAX_WORKING_PIXELS` in all: an
 * ordinary photo (its longer side at most 4 times its shorter) is scaled to `width` exactly as
 * before, a taller one is held to the pixel bound instead of growing with its height.
 */
export function workingSize(width: number, opts: { enlarge?: boolean } = {}) {
  return {
    width,
    height: Math.floor(MAX_WORKING_PIXELS / width),
    fit: 'inside' as const,
    withoutEnlargement: opts.enlarge === false,
  };
}

/** The side of a square of MAX_WORKING_PIXELS: a full-page working copy fits inside it. */
export const MAX_WORKING_SIDE = Math.floor(Math.sqrt(MAX_WORKING_PIXELS));
