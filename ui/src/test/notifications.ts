import type { Notification } from '../api/notifications';

/** A new type-1 notification for seller 7; tests override what they are about. */
export function makeNotification(id: number, overrides: Partial<Notification> = {}): Notification {
  return {
    id,
    seller_id: 7,
    subject: `Notification ${id}`,
    message: `<p>Body of ${id}</p>`,
    image: '',
    call_to_action_link: '',
    type: 1,
    is_warning: false,
    is_new: true,
    created_at: '2026-11-22T06:00:00Z',
    ...overrides,
  };
}
