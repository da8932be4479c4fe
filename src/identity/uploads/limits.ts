/** The size bounds of one uploaded image, in bytes; messages and the OpenAPI text derive from these. */
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
export const MIN_UPLOAD_BYTES = 1024;

/** The bounds as people read them: "15 MB", "1 KB". */
export const MAX_UPLOAD_SIZE = `${MAX_UPLOAD_BYTES / (1024 * 1024)} MB`;
export const MIN_UPLOAD_SIZE = `${MIN_UPLOAD_BYTES / 1024} KB`;

/**
 * The most pixels an image may claim in its header (README, "Security"): refused at upload, and
 * the bound sharp is given wherever images are decoded, so a small file cannot claim a huge canvas.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_MEGAPIXELS = MAX_IMAGE_PIXELS / 1_000_000;
