import { Badge, NavLink, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { DASHBOARD, SECTIONS, type MenuSection } from '../navigation/sections';

function isActive(section: MenuSection, pathname: string): boolean {
  if (section.path === '/') return pathname === '/';
  const root = `/${section.path.split('/')[1] ?? ''}`;
  return pathname === root || pathname.startsWith(`${root}/`);
}

interface NavMenuProps {
  onNavigate?: () => void;
}

/** The sidebar menu: the dashboard and the top-level sections. */
export function NavMenu({ onNavigate }: NavMenuProps) {
  const { pathname } = useLocation();
  return (
    <Stack component="nav" aria-label="Main" gap={2}>
      {[DASHBOARD, ...SECTIONS].map((section) => (
        <NavLink
          key={section.path}
          component={Link}
          to={section.path}
          label={section.label}
          leftSection={<section.icon size={18} stroke={1.6} />}
          rightSection={section.badge ? <Badge size="xs" variant="light">{section.badge}</Badge> : undefined}
          active={isActive(section, pathname)}
          onClick={onNavigate}
          variant="light"
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        />
      ))}
    </Stack>
  );
}
