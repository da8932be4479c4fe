import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '../image-bounds.js';

/**
 * Decodes a JPEG, PNG or WebP to RGB bytes no larger than maxSide, honouring EXIF orientation.
 * sharp refuses a header that claims more than MAX_IMAGE_PIXELS before it allocates anything,
 * so an image that slipped past the upload check cannot hold a face worker (docs/security.md, "Security").
 */
export async function decodeForFaces(image: Uint8Array, maxSide: number) {
  return sharp(image, { limitInputPixels: MAX_IMAGE_PIXELS })
    .rotate()
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
}
