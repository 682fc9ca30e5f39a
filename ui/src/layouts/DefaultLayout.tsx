import { AppShell, Burger, Group, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Outlet } from 'react-router';
import { ColorSchemeToggle } from '../components/ColorSchemeToggle';
import { Logo } from '../components/Logo';
import { NavMenu } from '../components/NavMenu';
import { SiteFooter } from '../components/SiteFooter';
import { UserMenu } from '../components/UserMenu';
import { useSessionUser } from '../session/useSessionUser';
import classes from './DefaultLayout.module.css';

/** The signed-in frame: top bar, menu, footer (spec §2.1). */
export function DefaultLayout() {
  const user = useSessionUser();
  const [opened, { toggle, close }] = useDisclosure();
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
            <ColorSchemeToggle />
            <UserMenu user={user} />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm">
        <AppShell.Section grow component={ScrollArea}>
          <NavMenu onNavigate={close} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main className={classes.main}>
        <Outlet />
      </AppShell.Main>
      <AppShell.Footer px="md">
        <Group h="100%" align="center">
          <SiteFooter />
        </Group>
      </AppShell.Footer>
    </AppShell>
  );
}
