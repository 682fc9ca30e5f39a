/** What a confirmation dialog says. */
export interface ConfirmText {
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
}

/** The defaults: "Are you sure?", "You won't be able to revert this!", "Yes, delete it!". */
export const CONFIRM_DEFAULTS: Readonly<ConfirmText> = {
  title: 'Are you sure?',
  text: "You won't be able to revert this!",
  confirmLabel: 'Yes, delete it!',
  cancelLabel: 'Cancel',
};

/** The dialog's texts: the defaults, overridden by whatever the caller sets (blank values keep the default). */
export function confirmText(overrides: Partial<ConfirmText> = {}): ConfirmText {
  const pick = (key: keyof ConfirmText): string => {
    const value = overrides[key];
    return value !== undefined && value.trim() !== '' ? value : CONFIRM_DEFAULTS[key];
  };
  return { title: pick('title'), text: pick('text'), confirmLabel: pick('confirmLabel'), cancelLabel: pick('cancelLabel') };
}
