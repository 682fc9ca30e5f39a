import { notifications } from '@mantine/notifications';
import { UPLOAD_FAILED, UploadRejectedError } from './uploader';

/**
 * The failure toast ("Upload file failed" / "Please try upload file again.",
 * 5000 ms). A file the server refused shows the server's reason instead of the generic text, so
 * the seller knows what to change.
 */
export function notifyUploadFailed(error: unknown): void {
  const message = error instanceof UploadRejectedError ? error.message : UPLOAD_FAILED.message;
  notifications.show({ color: 'red', title: UPLOAD_FAILED.title, message, autoClose: UPLOAD_FAILED.autoClose });
}
