import { describe, expect, it } from 'vitest';
import type { Font } from '../api/fonts';
import type { TextObject } from '../editor/document';
import { fontChoices } from './fontChoices';

const base: Font = {
  id: 1, family: 'Lato', style: 'Regular', full_name: 'Lato Regular', weight: 400, italic: false, format: 'ttf', size: 1,
  platform: true, font_url: 'fonts/platform/Lato-Regular.ttf', url: '/api/fonts/platform/Lato-Regular.ttf', created_at: '',
};
const mine: Font = { ...base, id: 9, family: 'Liberation Mono', style: 'Bold', platform: false, font_url: 'fonts/3/abc.ttf' };

describe('fontChoices', () => {
  it('offers the default font, the platform fonts and the seller’s, each setting fontFamily and fontUrl', () => {
    expect(fontChoices([base, mine], null)).toEqual([
      { value: 'default', label: 'Roboto (default)', family: 'Roboto', fontUrl: '' },
      { value: 'fonts/platform/Lato-Regular.ttf', label: 'Lato', family: 'Lato', fontUrl: 'fonts/platform/Lato-Regular.ttf' },
      { value: 'fonts/3/abc.ttf', label: 'Liberation Mono Bold (yours)', family: 'Liberation Mono', fontUrl: 'fonts/3/abc.ttf' },
    ]);
  });

  it('keeps a deleted font the text prints with', () => {
    const text = { fontFamily: 'Gone Sans', fontUrl: 'fonts/3/gone.ttf' } as TextObject;
    expect(fontChoices([base], text).at(-1)).toEqual({ value: 'fonts/3/gone.ttf', label: 'Gone Sans (deleted)', family: 'Gone Sans', fontUrl: 'fonts/3/gone.ttf' });
  });
});
