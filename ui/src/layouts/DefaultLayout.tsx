import { AppShell, Burger, Button, Group, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowBackUp, IconSparkles } from '@tabler/icons-react';
import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, Outlet, useSearchParams } from 'react-router';
import { backToAdmin } from '../api/account';
import { currentAccessContext, isDesigner, isImpersonated, visibleMenu } from '../access';
import { ColorSchemeToggle } from '../components/ColorSchemeToggle';
import { Logo } from '../components/Logo';
import { NavMenu } from '../components/NavMenu';
import { NewVersionBanner } from '../components/NewVersionBanner';
import { QuickNavigation } from '../components/QuickNavigation';
import { SidebarBalance } from '../components/SidebarBalance';
import { SiteFooter } from '../components/SiteFooter';
import { SwitchAccountModal } from '../components/SwitchAccountModal';
import { UserMenu } from '../components/UserMenu';
import { VerifyEmailBanner } from '../components/VerifyEmailBanner';
import { NotificationBell } from '../notifications/NotificationBell';
import { NotificationPopup } from '../notifications/NotificationPopup';
import { accountModalDismissed, authorizedAccountsQuery, useAccountReturn } from '../session/switching';
import { useSessionUser } from '../session/useSessionUser';
import { SellerSurvey } from '../survey/SellerSurvey';
import { systemConfigsQuery } from '../systemconfig/systemConfigs';
import { CampaignTracker } from '../tracking/CampaignTracker';
import classes from './DefaultLayout.module.css';
import { LabelBadge } from '../components/LabelBadge';

/** The signed-in frame: top bar, menu, footer, quick navigation. */
export function DefaultLayout() {
  const user = useSessionUser();
  const [opened, { toggle, close }] = useDisclosure();
  const visible = useMemo(() => visibleMenu(user, currentAccessContext()), [user]);
  usePrefetchQuery(systemConfigsQuery); // fetched once after login, cached for the screens
  const [search, setSearch] = useSearchParams();
  const [switchOpen, setSwitchOpen] = useState(false);
  const goBack = useAccountReturn();
  // After login (ref=login) the select-account modal opens when there are accounts to switch into
  // and the user has not asked never to see it again; the marker leaves the address once
  // the modal is closed, or at once when there is nothing to offer.
  const afterLogin = search.get('ref') === 'login';
  const offerAccounts = afterLogin && !isDesigner(user) && !accountModalDismissed();
  const accounts = useQuery({ ...authorizedAccountsQuery, enabled: offerAccounts });
  const loginModal = offerAccounts && (accounts.data?.length ?? 0) > 0;
  const dropLoginMarker = useCallback(
    () =>
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('ref');
          return next;
        },
        { replace: true },
      ),
    [setSearch],
  );
  useEffect(() => {
    if (afterLogin && !loginModal && !(offerAccounts && accounts.isPending)) void dropLoginMarker();
  }, [afterLogin, loginModal, offerAccounts, accounts.isPending, dropLoginMarker]);
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      footer={{ height: 40 }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle menu" />
            <Link to="/" aria-label="Pressroom home" style={{ color: 'inherit', textDecoration: 'none' }}>
              <Logo />
            </Link>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {isImpersonated(user) && (
              <>
                <LabelBadge color="orange" data-testid="impersonating" visibleFrom="sm">
                  Signed in as seller
                </LabelBadge>
                <Button
                  size="xs"
                  variant="light"
                  color="orange"
                  leftSection={<IconArrowBackUp size={16} />}
                  onClick={() => void goBack(backToAdmin, 'Cannot go back to your admin account. Please try again!')}
                >
                  Back to admin
                </Button>
              </>
            )}
            {/* On a phone the header keeps its room for the menus: the badge alone would push the account menu off. */}
            {isDesigner(user) && (
              <LabelBadge data-testid="designer-label" visibleFrom="sm">
                Designer
              </LabelBadge>
            )}
            {visible.includes('topbar.ai_design') && (
              <Button component={Link} to="/ai-design" variant="light" size="xs" leftSection={<IconSparkles size={16} />}>
                AI design
              </Button>
            )}
            <ColorSchemeToggle />
            {visible.includes('topbar.bell') && <NotificationBell />}
            <UserMenu user={user} visible={visible} onSwitchAccount={() => setSwitchOpen(true)} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <AppShell.Section grow component={ScrollArea}>
          <NavMenu visible={visible} onNavigate={close} />
        </AppShell.Section>
        {visible.includes('topbar.balance') && (
          <AppShell.Section pt="sm">
            <SidebarBalance user={user} onNavigate={close} />
          </AppShell.Section>
        )}
      </AppShell.Navbar>
      <AppShell.Main className={classes.main}>
        <NewVersionBanner />
        {visible.includes('topbar.verify_email_banner') && <VerifyEmailBanner />}
        <Outlet />
        <SwitchAccountModal
          opened={switchOpen || loginModal}
          afterLogin={loginModal}
          onClose={() => {
            setSwitchOpen(false);
            if (loginModal) void dropLoginMarker();
          }}
        />
        <QuickNavigation visible={visible} />
        <NotificationPopup allowed={visible.includes('notifications_popup')} />
        <SellerSurvey />
        <CampaignTracker />
      </AppShell.Main>
      <AppShell.Footer px="md">
        <Group h="100%" align="center">
          <SiteFooter />
        </Group>
      </AppShell.Footer>
    </AppShell>
  );
}
