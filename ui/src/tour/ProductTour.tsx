import { Anchor, Button, Group, Popover, Progress, Stack, Text } from '@mantine/core';
import { createContext, use, useCallback, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { Link } from 'react-router';
import { COOKIE_MAX_AGE_S, readCookie, removeCookie, writeCookie } from '../cookies';
import {
  DISABLE_TOUR_COOKIE,
  STEP_TOUR_COOKIE,
  stepIndex,
  TOUR_STEPS,
  type TourAnchor,
} from './steps';

interface TourState {
  /** The step shown, or null when the tour is not running. */
  index: number | null;
  go: (index: number) => void;
  skip: () => void;
}

const TourContext = createContext<TourState>({ index: null, go: () => undefined, skip: () => undefined });

interface ProductTourProps {
  /** The tour may run: the survey is out of the way and the getting-started panel is shown. */
  ready: boolean;
  children: ReactNode;
}

/**
 * The guided tour, around the getting-started panel whose items are its anchors
 * (TourStop). It starts at "greeting", keeps the step reached in step_product_tour, and "Skip
 * tutorial" or finishing sets disable_product_tour, which ends it for good.
 */
export function ProductTour({ ready, children }: ProductTourProps) {
  const [disabled, setDisabled] = useState(() => readCookie(DISABLE_TOUR_COOKIE) !== undefined);
  const [index, setIndex] = useState(() => stepIndex(readCookie(STEP_TOUR_COOKIE)));
  const go = useCallback((next: number) => {
    setIndex(next);
    writeCookie(STEP_TOUR_COOKIE, TOUR_STEPS[next]!.id, { maxAgeSeconds: COOKIE_MAX_AGE_S });
  }, []);
  const skip = useCallback(() => {
    writeCookie(DISABLE_TOUR_COOKIE, '1', { maxAgeSeconds: COOKIE_MAX_AGE_S });
    removeCookie(STEP_TOUR_COOKIE);
    setDisabled(true);
  }, []);
  const running = ready && !disabled;
  const state = useMemo(() => ({ index: running ? index : null, go, skip }), [running, index, go, skip]);
  return <TourContext value={state}>{children}</TourContext>;
}

interface TourStopProps {
  anchor: TourAnchor;
  children: ReactNode;
}

/** The popover's layer; its overlay sits just under it and the lit anchor on it. */
const TOUR_Z_INDEX = 300;

const RAISED: CSSProperties = {
  position: 'relative',
  zIndex: TOUR_Z_INDEX,
  background: 'var(--mantine-color-body)',
  borderRadius: 'var(--mantine-radius-md)',
};

/** One anchor of the tour: shows the current step's popover next to its children when the step is its. */
export function TourStop({ anchor, children }: TourStopProps) {
  const { index, go, skip } = use(TourContext);
  const step = index === null ? undefined : TOUR_STEPS[index];
  const opened = step?.anchor === anchor;
  const last = index === TOUR_STEPS.length - 1;
  return (
    <Popover opened={opened} position="bottom-start" withArrow shadow="lg" width={340} withOverlay={opened} overlayProps={{ zIndex: TOUR_Z_INDEX - 1 }} zIndex={TOUR_Z_INDEX} trapFocus={false}>
      <Popover.Target>
        {/* The step's anchor stands above the overlay, so the tour points at something lit. */}
        <div data-tour={anchor} style={opened ? RAISED : undefined}>
          {children}
        </div>
      </Popover.Target>
      {opened && index !== null && (
        <Popover.Dropdown data-testid="product-tour" data-step={step.id}>
          <Stack gap="sm">
            <Text fw={600}>{step.title}</Text>
            <Text size="sm">{step.body}</Text>
            {step.path && (
              <Anchor component={Link} to={step.path} size="sm">
                Open this page
              </Anchor>
            )}
            {step.sub && (
              <Stack gap={4}>
                <Text size="xs" c="dimmed">
                  Step {step.sub.index} of {step.sub.count}
                </Text>
                <Progress value={(step.sub.index / step.sub.count) * 100} size="sm" aria-label="Campaign steps done" />
              </Stack>
            )}
            <Group justify="space-between" wrap="nowrap">
              <Button variant="subtle" color="gray" size="xs" onClick={skip}>
                Skip tutorial
              </Button>
              <Group gap="xs" wrap="nowrap">
                {index > 0 && (
                  <Button variant="default" size="xs" onClick={() => go(index - 1)}>
                    Back
                  </Button>
                )}
                <Button size="xs" onClick={() => (last ? skip() : go(index + 1))}>
                  {last ? 'Finish' : 'Next'}
                </Button>
              </Group>
            </Group>
          </Stack>
        </Popover.Dropdown>
      )}
    </Popover>
  );
}
