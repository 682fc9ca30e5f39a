// How a print resolution rating shows on every screen: the editor's badge, the print files, the designer's review and
// the bulk records rate images good, normal or low (renderer/dpi), in these words and colours.

/** A print resolution rating. */
export type QualityRating = 'good' | 'normal' | 'low';

/** Each rating's word and badge colour: good quietly green, normal and low flagged. */
export const QUALITY_LOOK: Readonly<Record<QualityRating, { color: string; label: string }>> = {
  good: { color: 'green', label: 'Good' },
  normal: { color: 'yellow', label: 'Normal' },
  low: { color: 'red', label: 'Low' },
};
