/**
 * Container images as containerd reports them: references, digests, sizes, pull errors.
 */
import { hex, sha } from './ids.js';

/** The image reference containerd reports: "fluent/fluent-bit:3.0" -> "docker.io/fluent/fluent-bit:3.0". */
export function imageRef(image: string): string {
  const first = image.split('/')[0]!;
  if (image.split('/').length === 1) return `docker.io/library/${image}`;
  if (!first.includes('.') && !first.includes(':')) return `docker.io/${image}`;
  return image;
}

/** The digest reference of an image (repository@sha256:…). */
export function imageId(image: string): string {
  const ref = imageRef(image);
  return `${ref.replace(/:[^:/]+$/, '')}@sha256:${hex(`image/${ref}`, 64)}`;
}

/** The size in bytes of an image. */
export function imageSize(image: string): number {
  return 8_000_000 + (parseInt(sha(`size/${image}`).slice(0, 6), 16) % 90_000_000);
}

/** Node .status.images for a set of images, largest first. */
export function nodeImages(images: Iterable<string>): { names: string[]; sizeBytes: number }[] {
  return [...images]
    .map((i) => ({ names: [imageId(i), imageRef(i)], sizeBytes: imageSize(i) }))
    .sort((a, b) => b.sizeBytes - a.sizeBytes);
}

/** The error of pulling an image that does not exist (containerd's message). */
export function imageNotFound(image: string): string {
  const ref = imageRef(image);
  return `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
}
