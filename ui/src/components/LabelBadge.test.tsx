import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderWithMantine } from '../test/render';
import { LabelBadge } from './LabelBadge';

test('a badge keeps its whole label and names its code on hover', () => {
  renderWithMantine(
    <div style={{ display: 'flex', width: 40 }}>
      <LabelBadge code="partially_refunded">Partially refunded</LabelBadge>
    </div>,
  );
  const label = screen.getByText('Partially refunded');
  expect(label.style.overflow).toBe('visible');
  expect(label.style.textOverflow).toBe('clip');
  const badge = label.closest('.mantine-Badge-root') as HTMLElement;
  expect(badge.style.flexShrink).toBe('0');
  expect(badge.getAttribute('title')).toBe('partially_refunded');
});
