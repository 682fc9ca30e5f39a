import { Badge, NavLink, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { MenuItemId } from '../access';
import { visibleSections, type MenuSection } from '../navigation/sections';

function isActive(section: MenuSection, pathname: string): boolean {
  if (section.path === '/') return pathname === '/';
  const prefix = section.match ?? `/${section.path.split('/')[1] ?? ''}`;
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

interface NavMenuProps {
  /** The menu items the user sees (access rules of spec §6). */
  visible: readonly MenuItemId[];
  onNavigate?: () => void;
}

/** The sidebar menu: the sections holding at least one item the user may use. */
export function NavMenu({ visible, onNavigate }: NavMenuProps) {
  const { pathname } = useLocation();
  return (
    <Stack component="nav" aria-label="Main" gap={2}>
      {visibleSections(visible).map((section) => (
        <NavLink
          key={section.label}
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
