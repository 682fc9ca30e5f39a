// The font picker's choices of the text panel.

import type { Font } from '../api/fonts';
import type { TextObject } from '../editor/document';
import { EDITOR } from '../editor/model';

/** The picker's value of the default font, which a text uses without a fontUrl. */
export const DEFAULT_CHOICE = 'default';

export interface FontChoice {
  value: string;
  label: string;
  family: string;
  fontUrl: string;
}

/**
 * The font picker's choices: the default font (no fontUrl), then the platform fonts and the seller's by their
 * fontUrl. A text whose font was deleted keeps it, listed as such, so the picker still shows what it prints with.
 */
export function fontChoices(fonts: readonly Font[], text: TextObject | null): FontChoice[] {
  const styled = (f: Font) => (f.style && f.style !== 'Regular' ? `${f.family} ${f.style}` : f.family);
  const out: FontChoice[] = [
    { value: DEFAULT_CHOICE, label: `${EDITOR.defaultFont} (default)`, family: EDITOR.defaultFont, fontUrl: '' },
    ...fonts.map((f) => ({ value: f.font_url, label: f.platform ? styled(f) : `${styled(f)} (yours)`, family: f.family, fontUrl: f.font_url })),
  ];
  if (text?.fontUrl && !out.some((c) => c.value === text.fontUrl)) {
    const family = text.fontFamily || EDITOR.defaultFont;
    out.push({ value: text.fontUrl, label: `${family} (deleted)`, family, fontUrl: text.fontUrl });
  }
  return out;
}
