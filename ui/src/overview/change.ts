/**
 * The change of a figure against the previous period, as the overview's cards write it: "+12.5%",
 * "−3.0%" (a minus sign), "no change", or, when the previous period had none, "no previous {what}".
 */
export function changeText(value: number, previous: number, what: string): string {
  if (previous === 0) return `no previous ${what}`;
  if (value === previous) return 'no change';
  const pct = ((value - previous) / Math.abs(previous)) * 100;
  const text = Math.abs(pct).toFixed(1);
  return pct > 0 ? `+${text}%` : `\u2212${text}%`;
}

/** Whether the change reads as good (green), bad (red) or neither. */
export function changeTone(value: number, previous: number): 'up' | 'down' | 'none' {
  if (previous === 0 || value === previous) return 'none';
  return value > previous ? 'up' : 'down';
}
