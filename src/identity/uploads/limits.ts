/** The size bounds of one uploaded image, in bytes; messages and the OpenAPI text derive from these. */
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
export const MIN_UPLOAD_BYTES = 1024;

/** The bounds as people read them: "15 MB", "1 KB". */
export const MAX_UPLOAD_SIZE = `${MAX_UPLOAD_BYTES / (1024 * 1024)} MB`;
export const MIN_UPLOAD_SIZE = `${MIN_UPLOAD_BYTES / 1024} KB`;
