import type { ApiClient } from '../api/ApiClient';
import { completeUpload, getUpload, signUpload, type SignedUpload, type Upload } from './api';
import { stripForUpload } from './pngStrip';

/** Attempts of the upload to the pre-signed address (retries 3). */
export const PUT_ATTEMPTS = 3;

/** The toast of a failed upload. */
export const UPLOAD_FAILED = {
  title: 'Upload file failed',
  message: 'Please try upload file again.',
  autoClose: 5000,
} as const;

/** The server checked the file and refused it; `message` says why, for the user. */
export class UploadRejectedError extends Error {
  readonly upload: Upload;
  constructor(upload: Upload) {
    super(upload.message || 'The file was refused.');
    this.name = 'UploadRejectedError';
    this.upload = upload;
  }
}

export interface UploadOptions {
  /** The folder under the user's prefix (the API's filePath). */
  filePath?: string;
  fetch?: typeof fetch;
  /** Pause between PUT attempts and between status polls, in ms. */
  retryDelay?: number;
  pollInterval?: number;
  /** How long to wait for the server's check, in ms. */
  pollTimeout?: number;
  signal?: AbortSignal;
  onProgress?: (stage: 'preparing' | 'uploading' | 'checking') => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The request that sends body to a signed upload: a PUT of the body, or a multipart POST of the policy's fields and then the file. */
export function uploadRequest(signed: Pick<SignedUpload, 'method' | 'fields' | 'contentType'>, body: Blob): RequestInit {
  if (signed.method === 'POST') {
    const form = new FormData();
    for (const [name, value] of Object.entries(signed.fields ?? {})) form.append(name, value);
    form.append('file', body);
    return { method: 'POST', body: form };
  }
  return { method: 'PUT', body, headers: { 'Content-Type': signed.contentType } };
}

/** Sends body to the signed upload, up to PUT_ATTEMPTS times. */
export async function putWithRetry(
  signed: Pick<SignedUpload, 'preSignedUrl' | 'method' | 'fields' | 'contentType'>,
  body: Blob,
  options: Pick<UploadOptions, 'fetch' | 'retryDelay' | 'signal'> = {},
): Promise<void> {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let last: unknown;
  for (let attempt = 1; attempt <= PUT_ATTEMPTS; attempt++) {
    try {
      const response = await doFetch(signed.preSignedUrl, { ...uploadRequest(signed, body), signal: options.signal });
      if (response.ok) return;
      last = new Error(`${signed.method} failed with status ${response.status}`);
      // A refusal of the signature or size will not change on retry (S3 answers 400 for a body
      // outside the policy's size range).
      if (response.status === 400 || response.status === 403 || response.status === 413) break;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      last = error;
    }
    if (attempt < PUT_ATTEMPTS) await sleep((options.retryDelay ?? 500) * attempt);
  }
  throw last instanceof Error ? last : new Error('Upload failed');
}

/**
 * Uploads a file: PNGs wider than 1500 px (or of unknown width) lose their text
 * chunks first; then a pre-signed upload of exactly that size, the PUT or POST (3 attempts), the
 * ingest call, and polling until
 * the server's check (render:sanitize) made the upload ready. Throws UploadRejectedError when the
 * server refused the file, any other error when the upload itself failed.
 */
export async function uploadFile(api: ApiClient, file: File, options: UploadOptions = {}): Promise<Upload> {
  options.onProgress?.('preparing');
  const original = new Uint8Array(await file.arrayBuffer());
  const { bytes } = stripForUpload(original);
  const signed = await signUpload(api, file.name, bytes.byteLength, options.filePath);
  options.onProgress?.('uploading');
  await putWithRetry(signed, new Blob([bytes as BlobPart], { type: signed.contentType }), options);
  options.onProgress?.('checking');
  let upload = await completeUpload(api, signed.filePath, file.name);
  const deadline = Date.now() + (options.pollTimeout ?? 120_000);
  while (upload.status === 'pending') {
    if (Date.now() > deadline) throw new Error('The file check took too long.');
    await sleep(options.pollInterval ?? 400);
    upload = await getUpload(api, upload.id, options.signal);
  }
  if (upload.status === 'rejected') throw new UploadRejectedError(upload);
  return upload;
}
