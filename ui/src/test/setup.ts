import '@testing-library/jest-dom/vitest';

// jsdom lacks the layout APIs Mantine reads; these stand-ins answer "no match" and "no size".
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class NoopResizeObserver implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = NoopResizeObserver;

// jsdom has no layout, so no scrolling; Spotlight scrolls the selected action into view.
Object.defineProperty(Element.prototype, 'scrollIntoView', { writable: true, value: () => undefined });
