import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import {
  IconBuildingStore,
  IconCash,
  IconCreditCard,
  IconListCheck,
  IconMailbox,
  IconPalette,
  IconPackageOff,
  IconPrinter,
  IconShoppingCart,
  IconSpeakerphone,
  IconUserShield,
  type Icon,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { User } from '../api';
import { can, inOwnSellerAccount, isAdmin, isAuthorizedAccount, isDesigner } from '../access';
import { FeaturedCarousel } from '../featured/FeaturedCarousel';
import { useSessionUser } from '../session/useSessionUser';
import { useSurvey } from '../survey/useSurvey';
import { ProductTour, TourStop } from '../tour/ProductTour';
import { TOUR_SCREENS, type ScreenAnchor } from '../tour/steps';
import { LabelBadge } from '../components/LabelBadge';
import { Overview } from '../overview/Overview';

function memberSince(user: User): string {
  const created = new Date(user.created_at);
  if (Number.isNaN(created.getTime())) return '';
  return created.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

function greeting(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

interface FactProps {
  label: string;
  children: ReactNode;
}

function Fact({ label, children }: FactProps) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

interface GettingStartedItem {
  anchor: ScreenAnchor;
  text: string;
  icon: Icon;
}

/** The four steps of the guided tour, each a way into its screen (title and path in TOUR_SCREENS). */
const GETTING_STARTED: readonly GettingStartedItem[] = [
  { anchor: 'store', text: 'Your storefront, its name and domain.', icon: IconBuildingStore },
  { anchor: 'campaign', text: 'Products, artwork, prices: live in 8 steps.', icon: IconSpeakerphone },
  { anchor: 'orders', text: 'Follow orders from payment to delivery.', icon: IconShoppingCart },
  { anchor: 'payment', text: 'Where your payouts go, verified by email.', icon: IconCreditCard },
];

/**
 * Whether the getting-started panel is for `user`: a new seller (no store yet) in its own account.
 * Designers, team members and established sellers do not see it, nor the tour that runs on it.
 */
const showsGettingStarted = (user: User) => inOwnSellerAccount(user) && user.store_ids.length === 0;

/** The getting-started panel; its header and items are the guided tour's anchors. */
function GettingStarted() {
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="getting-started">
      <TourStop anchor="greeting">
        <Title order={2} fz="h4" mb="md">
          Getting started
        </Title>
      </TourStop>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {GETTING_STARTED.map((item) => (
          <TourStop key={item.anchor} anchor={item.anchor}>
            <UnstyledButton component={Link} to={TOUR_SCREENS[item.anchor].path} p="sm" style={{ borderRadius: 'var(--mantine-radius-md)', display: 'block' }}>
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" size="lg" radius="md">
                  <item.icon size={20} stroke={1.6} />
                </ThemeIcon>
                <Stack gap={2}>
                  <Text fw={500}>{TOUR_SCREENS[item.anchor].title}</Text>
                  <Text size="sm" c="dimmed">
                    {item.text}
                  </Text>
                </Stack>
              </Group>
            </UnstyledButton>
          </TourStop>
        ))}
      </SimpleGrid>
    </Card>
  );
}

interface Destination {
  title: string;
  text: string;
  to: string;
  icon: Icon;
  /** A page the bff serves itself (the queue monitor), loaded by the browser. */
  external?: boolean;
}

/** The designer's work: the review queue. */
const DESIGNER_HOME: readonly Destination[] = [
  {
    title: 'Design review',
    text: 'Print files waiting for your review: approve them for print or send them back with a reason.',
    to: '/orders/design',
    icon: IconPalette,
  },
];

/** The admin's tools. */
const ADMIN_HOME: readonly Destination[] = [
  {
    title: 'Queue monitor',
    text: 'Background work per queue: waiting, running, retrying and failed tasks.',
    to: '/admin/queues',
    icon: IconListCheck,
    external: true,
  },
  {
    title: 'Production',
    text: 'Items ready to print, the day’s print files in one download, shipping by item or by tracking CSV.',
    to: '/system/production',
    icon: IconPrinter,
  },
  { title: 'Payouts', text: 'Sellers’ payout requests to approve and pay, balance adjustments.', to: '/system/payouts', icon: IconCash },
  {
    title: 'Stock status',
    text: 'Colours and sizes of the catalogue out of stock: storefronts stop selling them, sellers see their campaigns touched.',
    to: '/system/stock-status',
    icon: IconPackageOff,
  },
  { title: 'Mail outbox', text: 'The mail the platform sent while no mail server is set up.', to: '/system/mail', icon: IconMailbox },
  {
    title: 'Sign in as a seller',
    text: 'See a seller’s dashboard as they do, every step audited; Back to admin returns here.',
    to: '/auth/login-as-seller',
    icon: IconUserShield,
  },
];

/** The home of staff (designers, admins): where their own work is, instead of the seller's first steps. */
function StaffHome({ title, destinations }: { title: string; destinations: readonly Destination[] }) {
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="staff-home">
      <Title order={2} fz="h4" mb="md">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {destinations.map((d) => (
          <UnstyledButton
            key={d.to}
            component={Link}
            to={d.to}
            reloadDocument={d.external === true}
            p="sm"
            style={{ borderRadius: 'var(--mantine-radius-md)', display: 'block' }}
          >
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon variant="light" size="lg" radius="md">
                <d.icon size={20} stroke={1.6} />
              </ThemeIcon>
              <Stack gap={2}>
                <Text fw={500}>{d.title}</Text>
                <Text size="sm" c="dimmed">
                  {d.text}
                </Text>
              </Stack>
            </Group>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </Card>
  );
}

/** What the home page says under the greeting, and the staff's own panel. */
function roleOf(user: User): { welcome: string; staff?: { title: string; destinations: readonly Destination[] } } {
  if (isDesigner(user)) return { welcome: 'Welcome to the Pressroom design studio.', staff: { title: 'Your work', destinations: DESIGNER_HOME } };
  if (isAdmin(user) && isAuthorizedAccount(user)) {
    return { welcome: 'Welcome to Pressroom administration.', staff: { title: 'Admin tools', destinations: ADMIN_HOME } };
  }
  return { welcome: 'Welcome to your Pressroom seller dashboard.' };
}

/**
 * `/`: who is signed in (from `GET /api/me`); for sellers the featured articles and the
 * getting-started panel, where the guided tour runs once the seller survey is out of the way, and
 * with get_reports the overview of their sales; for designers and admins a panel of their own work.
 */
export function DashboardPage() {
  const user = useSessionUser();
  const since = memberSince(user);
  const survey = useSurvey(user);
  const panel = showsGettingStarted(user);
  const role = roleOf(user);
  const reports = !role.staff && can(user, 'get_reports');
  return (
    <ProductTour ready={survey.settled && panel}>
      <Stack gap="lg" maw={reports ? 1200 : 960}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="lg">
          <Stack gap={4}>
            <Title order={1} fz="h2" data-testid="greeting">
              {greeting(new Date())}, {user.name}
            </Title>
            <Text c="dimmed">{role.welcome}</Text>
          </Stack>
          {/* The featured articles speak to sellers; staff get their own panel instead. */}
          {!role.staff && <FeaturedCarousel />}
        </Group>
        {panel && <GettingStarted />}
        {role.staff && <StaffHome {...role.staff} />}
        {reports && <Overview />}
        <Card withBorder radius="lg" padding="lg">
          <Title order={2} fz="h4" mb="md">
            Your account
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Fact label="Email">
              <Text data-testid="user-email">{user.email}</Text>
            </Fact>
            <Fact label="Roles">
              <Group gap={6} data-testid="user-roles">
                {user.roles.length > 0 ? (
                  user.roles.map((role) => (
                    <LabelBadge key={role} tt="capitalize">
                      {role}
                    </LabelBadge>
                  ))
                ) : (
                  <Text c="dimmed">No roles</Text>
                )}
              </Group>
            </Fact>
            <Fact label="Status">
              <Text tt="capitalize">{user.status}</Text>
            </Fact>
            {since && (
              <Fact label="Member since">
                <Text>{since}</Text>
              </Fact>
            )}
          </SimpleGrid>
        </Card>
      </Stack>
    </ProductTour>
  );
}
