/** The size bounds of one uploaded image, in bytes; messages and the OpenAPI text derive from these. */
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
export const MIN_UPLOAD_BYTES = 1024;

/** The bounds as people read them: "15 MB", "1 KB". */
export const MAX_UPLOAD_SIZE = `${MAX_UPLOAD_BYTES / (1024 * 1024)} MB`;
export const MIN_UPLOAD_SIZE = `${MIN_UPLOAD_BYTES / 1024} KB`;

/**
 * The most pixels an image may claim in its header (docs/security.md, "Security"): refused at upload, and
 * the bound sharp is given wherever images are decoded, so a small file cannot claim a huge canvas.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_MEGAPIXELS = MAX_IMAGE_PIXELS / 1_000_000;

/**
 * The shape bounds of an upload (docs/identity.md, "Bounded identity work"): a strip a few hundred pixels
 * wide and a hundred thousand tall stays under the pixel bound and compresses to a few hundred
 * kilobytes, yet every pass that scales a page to a working width enlarges it into a canvas of
 * gigapixels. No camera photo of a document or a face is that long or that thin.
 */
export const MAX_IMAGE_SIDE = 12_000;
export const MAX_IMAGE_ASPECT = 4;

/** The smallest image the decision pipeline accepts (width and height as stored); smaller ones are refused at upload. */
export const MIN_IMAGE_WIDTH = 320;
export const MIN_IMAGE_HEIGHT = 240;

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
