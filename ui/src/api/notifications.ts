import { z } from 'zod';
import type { ApiClient } from './ApiClient';
import type { Envelope, Page } from './envelope';

/** Lists are 15 to a page. */
export const NOTIFICATIONS_PER_PAGE = 15;

/** Notification types (bff/notifications): 1 comes back in the popup until read or dismissed, 2 shows once. */
export const NOTIFICATION_TYPE_REGULAR = 1;
export const NOTIFICATION_TYPE_ONCE = 2;

/** Read-status actions: 1 "Don't show this notification", 2 a type-2 notification shown in the popup. */
export const READ_STATUS_DISMISS = 1;
export const READ_STATUS_SEEN = 2;
export type ReadStatusAction = typeof READ_STATUS_DISMISS | typeof READ_STATUS_SEEN;

/** A notification; `message` is HTML the bff has sanitized; `seller_id` null means every seller. */
export const notificationSchema = z.object({
  id: z.number().int(),
  seller_id: z.number().int().nullable(),
  subject: z.string(),
  message: z.string(),
  image: z.string(),
  call_to_action_link: z.string(),
  type: z.number().int(),
  is_warning: z.boolean(),
  is_new: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

const bellSchema = z.object({ notifications: z.array(notificationSchema), unread_count: z.number().int() });
/** The bell's dropdown: the newest notifications and the unread count. */
export type Bell = z.infer<typeof bellSchema>;

/** A page of the caller's notifications, newest first. */
export async function notificationsPage(api: ApiClient, page: number, signal?: AbortSignal): Promise<Page<Notification>> {
  const answer = await api.getPage<unknown>('/seller/notifications', {
    query: { page, per_page: NOTIFICATIONS_PER_PAGE },
    signal,
  });
  return { ...answer, data: z.array(notificationSchema).parse(answer.data) };
}

/** One notification; the bff marks it read. */
export async function notification(api: ApiClient, id: number, signal?: AbortSignal): Promise<Notification> {
  return notificationSchema.parse(await api.get<unknown>(`/seller/notifications/${id}`, { signal }));
}

export async function bellNotifications(api: ApiClient, signal?: AbortSignal): Promise<Bell> {
  return bellSchema.parse(await api.get<unknown>('/seller/notifications/bell', { signal }));
}

/** What the popup may show: unread, not dismissed, type 2 only until seen once. */
export async function popupNotifications(api: ApiClient, signal?: AbortSignal): Promise<Notification[]> {
  return z.array(notificationSchema).parse(await api.get<unknown>('/seller/notifications/popup', { signal }));
}

/** Marks every notification read; answers the bff's message. */
export async function markAllAsRead(api: ApiClient): Promise<string> {
  return (await api.send<Envelope<unknown>>('PUT', '/seller/notifications', { body: { mark_all_as_read: true } })).message;
}

export async function sendReadStatus(api: ApiClient, notificationIds: readonly number[], action: ReadStatusAction): Promise<void> {
  await api.post('/seller/notifications/read-status', { notification_ids: notificationIds, action });
}

/** Query keys: everything under `notifications` is refetched after a change. */
export const notificationKeys = {
  all: ['notifications'] as const,
  pages: ['notifications', 'page'] as const,
  page: (page: number) => ['notifications', 'page', page] as const,
  one: (id: number) => ['notifications', 'one', id] as const,
  bell: ['notifications', 'bell'] as const,
  popup: ['notifications', 'popup'] as const,
};
