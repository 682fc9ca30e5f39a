import { useMemo, type ReactNode } from 'react';
import { currentAccessContext, visibleMenu } from '../access';
import { ErrorPage } from '../pages/ErrorPage';
import { useSessionUser } from '../session/useSessionUser';

/**
 * The email-marketing pages need the "email marketing" tag and update_campaign: the same
 * rule as the menu item, so a user who cannot see the item cannot open its pages either. The bff
 * checks it again on every call.
 */
export function EmailMarketingGate({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  const allowed = useMemo(() => visibleMenu(user, currentAccessContext()).includes('email_marketing'), [user]);
  if (!allowed) {
    return (
      <ErrorPage
        status={403}
        message="This action is unauthorized."
        detail="Email marketing needs the email marketing feature and the update campaign permission."
      />
    );
  }
  return children;
}
