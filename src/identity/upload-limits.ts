/** The size bounds of one uploaded image, in bytes; messages and the OpenAPI text derive from these. */
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
export const MIN_UPLOAD_BYTES = 1024;

/** The bounds as people read them: "15 MB", "1 KB". */
export const MAX_UPLOAD_SIZE = `${MAX_UPLOAD_BYTES / (1024 * 1024)} MB`;
export const MIN_UPLOAD_SIZE = `${MIN_UPLOAD_BYTES / 1024} KB`;

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
