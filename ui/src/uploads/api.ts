import { newIdempotencyKey, type ApiClient } from '../api/ApiClient';

/**
 * The answer of POST /pre-signed-url: send the file with `method` to `preSignedUrl`, as
 * the body of a PUT with the Content-Type header, or as the field "file" of a multipart POST after
 * every one of `fields` (an S3 upload policy). The signature allows at most `maxBytes`.
 */
export interface SignedUpload {
  filePath: string;
  preSignedUrl: string;
  fileUrl: string;
  method: 'PUT' | 'POST';
  fields: Record<string, string> | null;
  contentType: string;
  maxBytes: number;
  expiresAt: string;
}

export type UploadStatus = 'pending' | 'ready' | 'rejected';

/** An upload as GET /uploads/{id} shows it. */
export interface Upload {
  id: number;
  filePath: string;
  fileUrl: string;
  file_name: string;
  type: string;
  status: UploadStatus;
  message: string;
  content_type: string;
  width: number | null;
  height: number | null;
  dpi_x: number | null;
  dpi_y: number | null;
  byte_size: number | null;
  stripped: boolean;
  created_at: string;
}

/** Signs the upload of a file of fileSize bytes; the signature then allows no more. */
export function signUpload(api: ApiClient, fileName: string, fileSize: number, filePath?: string): Promise<SignedUpload> {
  return api.post<SignedUpload>('/pre-signed-url', { fileName, fileSize, filePath });
}

export function completeUpload(api: ApiClient, filePath: string, fileName: string): Promise<Upload> {
  return api.post<Upload>('/uploads/complete', { filePath, fileName }, { idempotencyKey: newIdempotencyKey() });
}

export function getUpload(api: ApiClient, id: number, signal?: AbortSignal): Promise<Upload> {
  return api.get<Upload>(`/uploads/${id}`, { signal });
}

/** The app URL of a stored file's WebP variant (preview, thumb, design, design3x, ...). */
export function variantUrl(fileUrl: string, variant: string): string {
  return `${fileUrl}?variant=${encodeURIComponent(variant)}`;
}
