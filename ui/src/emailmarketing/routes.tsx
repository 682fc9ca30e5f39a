import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { SECTIONS } from '../navigation/sections';
import { SectionPage } from '../pages/SectionPage';
import { EmailMarketingGate } from './EmailMarketingGate';
import { SendersPage } from './SendersPage';
import { SettingsPage } from './SettingsPage';
import { SubscribersPage } from './SubscribersPage';

/** The section path the shell would otherwise fill with its placeholder. */
export const EMAIL_MARKETING_HOME = '/email-marketing/campaigns';

const section = SECTIONS.find((s) => s.path === EMAIL_MARKETING_HOME);

/**
 * The email-marketing routes (spec §2), each behind the tag-and-permission gate. The email
 * campaign screens are not built yet: they show the section's placeholder, gated the same way.
 */
export function emailMarketingRoutes(): RouteObject[] {
  const gated = (path: string, page: ReactNode): RouteObject => ({
    path,
    element: <EmailMarketingGate>{page}</EmailMarketingGate>,
  });
  const placeholder = section ? <SectionPage section={section} /> : null;
  return [
    gated('email-marketing/settings', <SettingsPage />),
    gated('email-marketing/senders', <SendersPage />),
    gated('email-marketing/subscribers', <SubscribersPage />),
    gated('email-marketing/campaigns', placeholder),
    gated('email-marketing/campaigns/new', placeholder),
    gated('email-marketing/campaigns/edit/:id', placeholder),
    gated('email-marketing/campaigns/view/:id', placeholder),
  ];
}
