import { Spotlight, type SpotlightActionData } from '@mantine/spotlight';
import { IconArrowRight, IconSearch } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import type { MenuItemId } from '../access';
import { QUICK_NAV_SHORTCUT, quickNavDestinations } from '../navigation/quickNav';

interface QuickNavigationProps {
  /** The menu items the user sees (access rules); only their destinations are offered. */
  visible: readonly MenuItemId[];
}

/** The quick-navigation picker: Ctrl+G, "Go to page", the destinations the user may open. */
export function QuickNavigation({ visible }: QuickNavigationProps) {
  const navigate = useNavigate();
  const actions = useMemo<SpotlightActionData[]>(
    () =>
      quickNavDestinations(visible).map((destination) => ({
        id: destination.path,
        label: destination.label,
        description: destination.group,
        keywords: [destination.path],
        rightSection: <IconArrowRight size={16} stroke={1.5} />,
        onClick: () => void navigate(destination.path),
      })),
    [visible, navigate],
  );
  return (
    <Spotlight
      actions={actions}
      shortcut={QUICK_NAV_SHORTCUT}
      tagsToIgnore={[]}
      nothingFound="No page matches."
      highlightQuery
      scrollable
      maxHeight={420}
      searchProps={{
        placeholder: 'Go to page',
        'aria-label': 'Go to page',
        leftSection: <IconSearch size={18} stroke={1.5} />,
      }}
    />
  );
}
