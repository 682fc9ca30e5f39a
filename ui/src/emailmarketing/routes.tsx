import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { EditEmailCampaignPage, NewEmailCampaignPage } from './EmailCampaignEditPage';
import { EmailCampaignsPage } from './EmailCampaignsPage';
import { EmailCampaignViewPage } from './EmailCampaignViewPage';
import { EmailMarketingGate } from './EmailMarketingGate';
import { SendersPage } from './SendersPage';
import { SettingsPage } from './SettingsPage';
import { SubscribersPage } from './SubscribersPage';

/** The section path the shell would otherwise fill with its placeholder. */
export const EMAIL_MARKETING_HOME = '/email-marketing/campaigns';

/** The email-marketing routes, each behind the tag-and-permission gate. */
export function emailMarketingRoutes(): RouteObject[] {
  const gated = (path: string, page: ReactNode): RouteObject => ({
    path,
    element: <EmailMarketingGate>{page}</EmailMarketingGate>,
  });
  return [
    gated('email-marketing/settings', <SettingsPage />),
    gated('email-marketing/senders', <SendersPage />),
    gated('email-marketing/subscribers', <SubscribersPage />),
    gated('email-marketing/campaigns', <EmailCampaignsPage />),
    gated('email-marketing/campaigns/new', <NewEmailCampaignPage />),
    gated('email-marketing/campaigns/edit/:id', <EditEmailCampaignPage />),
    gated('email-marketing/campaigns/view/:id', <EmailCampaignViewPage />),
  ];
}
