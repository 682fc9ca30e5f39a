import { Group, NavLink, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { MenuItemId } from '../access';
import { activeEntry, visibleSections, type MenuEntry } from '../navigation/sections';
import { LabelBadge } from './LabelBadge';

interface NavMenuProps {
  /** The menu items the user sees (access rules). */
  visible: readonly MenuItemId[];
  onNavigate?: () => void;
}

const ROUNDED = { borderRadius: 'var(--mantine-radius-md)' };

/**
 * The sidebar menu: the sections holding an item the user may use, opened on their
 * visible pages; the page being shown is highlighted.
 */
export function NavMenu({ visible, onNavigate }: NavMenuProps) {
  const { pathname } = useLocation();
  const sections = visibleSections(visible);
  const active = activeEntry(sections, pathname);
  const link = (entry: MenuEntry) => ({
    component: Link,
    to: entry.path,
    // A page the bff serves itself is loaded by the browser, outside the app's router.
    reloadDocument: entry.external === true,
    active: entry === active,
    onClick: onNavigate,
    variant: 'light' as const,
    style: ROUNDED,
  });
  return (
    <Stack component="nav" aria-label="Main" gap={2}>
      {sections.map((section) => {
        const icon = <section.icon size={18} stroke={1.6} />;
        const badge = section.badge ? (
          <LabelBadge size="xs">
            {section.badge}
          </LabelBadge>
        ) : undefined;
        const [only] = section.entries;
        if (section.entries.length === 1 && only && only.label === section.label) {
          return (
            <NavLink key={section.label} {...link(only)} label={section.label} leftSection={icon} rightSection={badge} />
          );
        }
        return (
          <NavLink
            key={section.label}
            label={
              badge ? (
                <Group gap={6} wrap="nowrap" style={{ whiteSpace: 'nowrap' }}>
                  {section.label}
                  {badge}
                </Group>
              ) : (
                section.label
              )
            }
            leftSection={icon}
            defaultOpened
            childrenOffset={28}
            style={ROUNDED}
            data-section={section.label}
          >
            {section.entries.map((entry) => (
              <NavLink key={entry.path} {...link(entry)} label={entry.label} />
            ))}
          </NavLink>
        );
      })}
    </Stack>
  );
}
